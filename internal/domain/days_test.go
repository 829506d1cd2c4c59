package domain

import (
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

func TestDealTodayIsTheDealsCalendarDay(t *testing.T) {
	now := time.Date(2026, 11, 26, 23, 30, 0, 0, time.UTC)
	if got := DealToday(now, DealLocation("Asia/Tokyo")); got != "2026-11-27" {
		t.Errorf("23:30 UTC in Tokyo = %s, want 2026-11-27", got)
	}
	if got := DealToday(now, DealLocation("Not/AZone")); got != "2026-11-26" {
		t.Errorf("an unknown zone = %s, want UTC's day", got)
	}
}

func TestDueThisWeekIsTodayAndTheSixDaysAfter(t *testing.T) {
	due := func(date string, status api.RequestStatus) *api.DealRequest {
		return &api.DealRequest{Kind: api.KindRequest, Status: status, DueDate: &date}
	}
	const today = "2026-03-26" // the week spans the end of March's clock change in Europe
	for date, want := range map[string]bool{"2026-03-25": false, "2026-03-26": true, "2026-04-01": true, "2026-04-02": false} {
		if got := DueThisWeek(due(date, api.StatusOpen), today); got != want {
			t.Errorf("due %s, today %s: DueThisWeek = %v, want %v", date, today, got, want)
		}
	}
	if DueThisWeek(due(today, api.StatusComplete), today) {
		t.Errorf("a complete request counts as due this week")
	}
}
