// Package storetest is the conformance suite every store.Store backend
// must pass. Backends call Run from their own tests with a function that
// opens a fresh, empty, migrated store:
//
//	storetest.Run(t, func(t *testing.T) store.Store { ... })
//
// The suite talks to the store only through its interface, so what it
// checks is what the server may rely on, whichever database is under it.
package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/dealctl/dealctl/internal/store"
)

// Opener opens a fresh, empty store; it registers its own Close with
// t.Cleanup.
type Opener func(t *testing.T) store.Store

// Run runs every conformance test, each on a store of its own.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"PingDialect", testPingDialect},
		{"SeedAndRead", testSeedAndRead},
		{"ApplyIdempotent", testApplyIdempotent},
		{"ApplyRollsBack", testApplyRollsBack},
		{"AdminTxReads", testAdminTxReads},
		{"NotFound", testNotFound},
		{"CreateRequestNumbering", testCreateRequestNumbering},
		{"CreateRequestErrors", testCreateRequestErrors},
		{"UpdateRequest", testUpdateRequest},
		{"UpdateRequestAdvances", testUpdateRequestAdvances},
		{"UpdateRequestAbort", testUpdateRequestAbort},
		{"DealVersion", testDealVersion},
		{"PostMessage", testPostMessage},
		{"PostMessageStatus", testPostMessageStatus},
		{"PostMessageAtomic", testPostMessageAtomic},
		{"Views", testViews},
		{"OneStatementReads", testOneStatementReads},
		{"ListChanges", testListChanges},
		{"MembersVersion", testMembersVersion},
		{"Outbox", testOutbox},
		{"OutboxLimit", testOutboxLimit},
		{"OutboxRenewals", testOutboxRenewals},
		{"OutboxConcurrentClaims", testOutboxConcurrentClaims},
		{"Setting", testSetting},
		{"APIKeys", testAPIKeys},
		{"DealArchived", testDealArchived},
		{"AttachFile", testAttachFile},
		{"Migrate", testMigrate},
		{"Idempotency", testIdempotency},
		{"IdempotencyClaims", testIdempotencyClaims},
		{"SeedingTouchesRequests", testSeedingTouchesRequests},
		{"ConcurrentCreates", testConcurrentCreates},
		{"ConcurrentWrites", testConcurrentWrites},
		{"EventsRecorded", testEventsRecorded},
		{"EventsFailedWrites", testEventsFailedWrites},
		{"EventsVisibility", testEventsVisibility},
		{"ConcurrentEvents", testConcurrentEvents},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// t0 is the seeded world's clock: a whole number of microseconds, the
// precision every backend keeps.
var t0 = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)

func newID() string { return uuid.Must(uuid.NewV7()).String() }

func ptr[T any](v T) *T { return &v }

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustGet[T any](t *testing.T) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// wantErr fails unless err is (or wraps) want.
func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: got error %v, want %v", what, err, want)
	}
}

// version is the deal's Version, which every write to the deal bumps.
func version(t *testing.T, s store.Store, dealID string) int64 {
	t.Helper()
	d, err := s.Deal(ctxT(t), dealID)
	if err != nil {
		t.Fatalf("Deal: %v", err)
	}
	return d.Version
}

// wantVersionDelta checks that exactly delta writes touched the deal
// since before was read.
func wantVersionDelta(t *testing.T, s store.Store, dealID string, before, delta int64, what string) {
	t.Helper()
	if got := version(t, s, dealID); got != before+delta {
		t.Errorf("%s: deal version %d -> %d, want +%d", what, before, got, delta)
	}
}
