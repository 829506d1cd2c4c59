package domain

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// The expectations below are written out from docs/decisions.md, not computed,
// so that a change to the rules has to change this table too.
func TestPolicyMatrix(t *testing.T) {
	type want struct {
		create, edit, assign, answer bool
		fromOpen, fromPartial        []api.RequestStatus // allowed statuses
		fromComplete                 []api.RequestStatus
		writeDenial                  string
		internal                     bool
	}
	none := []api.RequestStatus{}
	ownerWorker := want{create: true, edit: true, assign: true, answer: true,
		fromOpen:     []api.RequestStatus{api.StatusPartial, api.StatusComplete},
		fromPartial:  []api.RequestStatus{api.StatusOpen, api.StatusComplete},
		fromComplete: []api.RequestStatus{api.StatusOpen, api.StatusPartial},
		internal:     true}
	counterWorker := want{assign: true, answer: true,
		fromOpen:     []api.RequestStatus{api.StatusPartial, api.StatusComplete},
		fromPartial:  []api.RequestStatus{api.StatusComplete},
		fromComplete: none}
	readOnly := func(internal bool, denial string) want {
		return want{fromOpen: none, fromPartial: none, fromComplete: none, writeDenial: denial, internal: internal}
	}
	cases := []struct {
		owner    bool
		access   api.Access
		admin    bool
		archived bool
		key      api.KeyAccess
		want     want
	}{
		{true, api.AccessAdmin, true, false, api.KeyWrite, ownerWorker},
		{true, api.AccessAdmin, false, false, api.KeyWrite, ownerWorker},
		{true, api.AccessEditor, false, false, api.KeyWrite, ownerWorker},
		{true, api.AccessViewer, false, false, api.KeyWrite, readOnly(true, "")},
		{false, api.AccessAdmin, true, false, api.KeyWrite, counterWorker},
		{false, api.AccessEditor, false, false, api.KeyWrite, counterWorker},
		{false, api.AccessViewer, false, false, api.KeyWrite, readOnly(false, "")},
		// A read key permits nothing but reading, whoever holds it.
		{true, api.AccessAdmin, true, false, api.KeyRead, readOnly(true, api.ReasonReadOnlyKey)},
		{false, api.AccessEditor, false, false, api.KeyRead, readOnly(false, api.ReasonReadOnlyKey)},
		// An archived deal is read-only for everyone, project admins too.
		{true, api.AccessAdmin, true, true, api.KeyWrite, readOnly(true, api.ReasonDealArchived)},
		{false, api.AccessAdmin, true, true, api.KeyWrite, readOnly(false, api.ReasonDealArchived)},
		{true, api.AccessEditor, false, true, api.KeyRead, readOnly(true, api.ReasonReadOnlyKey)},
	}
	for _, c := range cases {
		name := fmt.Sprintf("owner=%v/%s/projectadmin=%v/archived=%v/key=%s", c.owner, c.access, c.admin, c.archived, c.key)
		t.Run(name, func(t *testing.T) {
			caller := Caller{KeyAccess: c.key, PartyID: "p", Access: c.access, IsProjectAdmin: c.admin, OwnerSide: c.owner, Archived: c.archived}
			w := c.want
			if caller.CanCreate() != w.create {
				t.Errorf("CanCreate = %v, want %v", caller.CanCreate(), w.create)
			}
			for _, st := range []struct {
				from api.RequestStatus
				want []api.RequestStatus
			}{{api.StatusOpen, w.fromOpen}, {api.StatusPartial, w.fromPartial}, {api.StatusComplete, w.fromComplete}} {
				got := caller.AllowedStatuses(api.KindRequest, st.from)
				if !slices.Equal(got, st.want) {
					t.Errorf("AllowedStatuses(from %s) = %v, want %v", st.from, got, st.want)
				}
				can := caller.Can(api.KindRequest, st.from)
				wantCan := api.RequestCan{Edit: w.edit, Assign: w.assign, ChangeStatus: len(st.want) > 0, Answer: w.answer}
				if can != wantCan {
					t.Errorf("Can(request, %s) = %+v, want %+v", st.from, can, wantCan)
				}
				if sec := caller.Can(api.KindSection, st.from); sec.Assign || sec.Answer || sec.ChangeStatus || sec.Edit != w.edit {
					t.Errorf("Can(section) = %+v: a section can only be edited", sec)
				}
				if got := caller.AllowedStatuses(api.KindSection, st.from); len(got) != 0 {
					t.Errorf("a section allows statuses %v", got)
				}
			}
			if got := caller.WriteDenial(); got != w.writeDenial {
				t.Errorf("WriteDenial = %q, want %q", got, w.writeDenial)
			}
			if got := caller.MayPostInternal(); got != w.internal {
				t.Errorf("MayPostInternal = %v, want %v", got, w.internal)
			}
			// Importing answers from a sheet is the owning side's, as
			// private notes are.
			if got := caller.MayPostImported(); got != w.internal {
				t.Errorf("MayPostImported = %v, want %v", got, w.internal)
			}
			if got := caller.MayTransition(); got != (c.access != api.AccessViewer) {
				t.Errorf("MayTransition = %v for %s", got, c.access)
			}
		})
	}
}

func TestMaySeeMessage(t *testing.T) {
	c := Caller{PartyID: "buy"}
	cases := []struct {
		party    string
		internal bool
		want     bool
	}{
		{"sell", false, true},
		{"sell", true, false}, // the other side's internal note
		{"buy", true, true},   // one's own side's
		{"buy", false, true},
	}
	for _, tc := range cases {
		if got := c.MaySeeMessage(tc.party, tc.internal); got != tc.want {
			t.Errorf("MaySeeMessage(%s, internal=%v) = %v, want %v", tc.party, tc.internal, got, tc.want)
		}
	}
}

func TestDealVisible(t *testing.T) {
	for _, c := range []struct{ archived, projectAdmin, want bool }{
		{false, false, true},
		{false, true, true},
		{true, true, true},
		{true, false, false}, // an archived deal is hidden from all but its project admins
	} {
		if got := DealVisible(c.archived, c.projectAdmin); got != c.want {
			t.Errorf("DealVisible(archived %v, project admin %v) = %v, want %v", c.archived, c.projectAdmin, got, c.want)
		}
	}
}
