package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dealctl/dealctl/internal/api"
)

// bigList is a deal of n rows: a section every 50 rows, the rest requests
// with bodies, assignees and due dates, as a large real list has.
func bigList(n int) []api.DealRequest {
	rows := make([]api.DealRequest, 0, n)
	var section string
	alice := "p-alice"
	for i := 0; len(rows) < n; i++ {
		if i%50 == 0 {
			section = fmt.Sprintf("s%d", i/50+1)
			rows = append(rows, api.DealRequest{ID: section, Kind: api.KindSection, Number: fmt.Sprint(i/50 + 1), Title: "Section " + fmt.Sprint(i/50+1), Status: api.StatusOpen})
			continue
		}
		due := fmt.Sprintf("2027-%02d-%02d", i%12+1, i%28+1)
		parent := section
		rows = append(rows, api.DealRequest{
			ID: fmt.Sprintf("r%d", i), ParentID: &parent, Kind: api.KindRequest,
			Number: fmt.Sprintf("%d.%d", i/50+1, i%50), Title: fmt.Sprintf("Request %d: documents for the data room, with a long title", i),
			Body:   strings.Repeat("Please provide the signed originals and every amendment. ", 4),
			Status: api.RequestStatuses[i%3], Priority: api.Priorities[i%3], Category: api.CategoryLegal,
			DueDate: &due, AssigneeID: &alice, AllowedStatuses: []api.RequestStatus{api.StatusComplete},
		})
	}
	return rows
}

// loaded is a model that has loaded rows, sized w×h, without a server.
func loaded(tb testing.TB, rows []api.DealRequest, w, h int) *Model {
	tb.Helper()
	deal := api.Deal{ID: "d", Codename: "Big", Timezone: "Europe/London"}
	m := New(context.Background(), Options{Deal: &deal, Now: func() time.Time { return t0 }})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(dealLoadedMsg{deal: deal, seat: &api.Seat{}, people: map[string]string{"p-alice": "Alice Sato"}, rows: rows})
	return m
}

// BenchmarkView2200 is the cost of drawing the screen of a 2,200-row list
// with the cursor in the middle (target: under 5 ms; see docs/tui.md).
func BenchmarkView2200(b *testing.B) {
	m := loaded(b, bigList(2200), 120, 40)
	m.Update(keyMsg("G"))
	m.cursor, m.offset = 1100, 1090
	m.syncDetail(true)
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkView3000 is the same at 3,000 rows, the size issue 13 sets the
// 5 ms target at, with a filter and the sort on: only the window is drawn,
// so the cost should not differ from 2,200 rows.
func BenchmarkView3000(b *testing.B) {
	m := loaded(b, bigList(3000), 120, 40)
	m.setFilter(filter{priority: api.PriorityHigh, order: orderDue})
	m.cursor = len(m.list.visible) / 2
	m.clampCursor()
	m.syncDetail(true)
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkScroll2200 is one key press that moves the cursor and the
// redraw that follows: what the user feels when holding j.
func BenchmarkScroll2200(b *testing.B) {
	m := loaded(b, bigList(2200), 120, 40)
	down, up := keyMsg("j"), keyMsg("k")
	i := 0
	for b.Loop() {
		if i%4000 < 2000 {
			m.Update(down)
		} else {
			m.Update(up)
		}
		i++
		_ = m.View()
	}
}

// BenchmarkSearch2200 is one keystroke of a search over the whole list.
func BenchmarkSearch2200(b *testing.B) {
	m := loaded(b, bigList(2200), 120, 40)
	for b.Loop() {
		m.list = m.list.withFilter(filter{}, "amendment")
	}
}

func TestViewDrawsOnlyTheWindow(t *testing.T) {
	t.Parallel()
	m := loaded(t, bigList(2200), 80, 24)
	m.Update(keyMsg("G"))
	v := screen(t, m)
	if !strings.Contains(v, "Request 2199") {
		t.Errorf("G should show the last row:\n%s", v)
	}
	if strings.Contains(v, "Request 1:") {
		t.Errorf("the first rows should be out of the window at the end of the list")
	}
	m.Update(keyMsg("g"))
	if r := m.current(); r == nil || r.Number != "1" {
		t.Errorf("g should go back to the first row, got %v", r)
	}
	m.Update(keyMsg("pgdown"))
	if m.cursor != m.layout().listH {
		t.Errorf("PgDn moved the cursor to %d, want one page (%d)", m.cursor, m.layout().listH)
	}
}
