package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// activityRecord is one event as `activity -o json` prints it, one object
// a line: the API's event, with the request's number and title and the
// feed's one-line description added.
type activityRecord struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	At        time.Time       `json:"at"`
	Actor     *api.Author     `json:"actor"`
	RequestID *string         `json:"request_id"`
	Number    string          `json:"number,omitempty"`
	Title     string          `json:"title,omitempty"`
	What      string          `json:"what"`
	Data      json.RawMessage `json:"data"`
}

func recordOf(e activity.Entry) activityRecord {
	ev := e.Event
	r := activityRecord{ID: ev.ID, Type: string(ev.Type), At: ev.At, Actor: ev.Actor, RequestID: ev.RequestID, Title: e.Title, What: e.What, Data: ev.Data}
	if !strings.HasPrefix(e.Number, "#") { // "#abcd1234": a request this key cannot name
		r.Number = e.Number
	}
	return r
}

// feedPrinter prints feed entries in the format asked for, as they come:
// lines for people on a terminal, one JSON object a line with -o json,
// the --jq expression over each, stable tab-separated columns piped.
// csv, tsv and yaml print the whole feed at once (collect, then flush).
type feedPrinter struct {
	out   io.Writer
	p     *output.Printer
	tty   bool
	color bool
	table *output.Table // for csv, tsv and a pipe
	all   []activityRecord
	n     int // entries printed or collected
}

func newFeedPrinter(e cmdEnv, table *output.Table) *feedPrinter {
	return &feedPrinter{out: e.IO.Out, p: e.Printer(), tty: e.IO.IsStdoutTTY(), color: e.IO.ColorEnabled(), table: table}
}

// collects reports whether the format prints the feed only at the end,
// which --follow cannot wait for.
func (f *feedPrinter) collects() bool {
	return f.p.JQ == "" && (f.p.Format == output.FormatCSV || f.p.Format == output.FormatTSV || f.p.Format == output.FormatYAML)
}

// human reports whether the feed is printed as lines for people.
func (f *feedPrinter) human() bool {
	return f.p.JQ == "" && (f.p.Format == "" || f.p.Format == output.FormatTable) && f.tty
}

// print writes es now, or keeps them for flush; row is each entry's
// table row (for a pipe, csv and tsv).
func (f *feedPrinter) print(es []activity.Entry, row func(activity.Entry) []string) error {
	f.n += len(es)
	switch {
	case f.p.JQ != "":
		for _, e := range es {
			if err := f.p.Print(output.View{Data: recordOf(e)}); err != nil {
				return err
			}
		}
		return nil
	case f.p.Format == output.FormatJSON:
		for _, e := range es {
			b, err := json.Marshal(recordOf(e))
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintln(f.out, string(b)); err != nil {
				return err
			}
		}
		return nil
	case f.human():
		w := terminalSafeWriter{w: f.out, color: f.color}
		th := f.p.Theme
		cols := feedColumnsFor(es)
		for _, e := range es {
			if _, err := io.WriteString(w, cols.line(th, e)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, e := range es {
		f.table.AddRow(row(e)...)
		f.all = append(f.all, recordOf(e))
	}
	if f.collects() {
		return nil
	}
	// A pipe: tab-separated, no header, a batch at a time.
	err := f.p.Print(output.View{Table: f.table})
	f.table.Rows, f.all = nil, nil
	return err
}

// flush prints what print kept (csv, tsv, yaml).
func (f *feedPrinter) flush() error {
	if !f.collects() {
		return nil
	}
	if f.all == nil {
		f.all = []activityRecord{}
	}
	return f.p.Print(output.View{Data: f.all, Table: f.table})
}

// feedColumns are the widths of the actor and number of a batch of feed
// lines, so that each begins where the line above's does.
type feedColumns struct{ actor, number int }

// Widest the actor and number columns grow; longer ones are cut with "…".
const (
	maxActorWidth  = 20
	maxNumberWidth = 10
)

func feedColumnsFor(es []activity.Entry) feedColumns {
	var c feedColumns
	for _, e := range es {
		c.actor = max(c.actor, min(maxActorWidth, ansi.StringWidth(termsafe.Line(e.Actor))))
		c.number = max(c.number, min(maxNumberWidth, ansi.StringWidth(termsafe.Line(e.Number))))
	}
	return c
}

// line is one entry for a person: "2026-11-23 14:05  Alice Sato  1.1
// Certificate of incorporation: moved open → partial", the actor and the
// number padded to the batch's widths. Server text is made safe before
// colour is added.
func (c feedColumns) line(th *display.Theme, e activity.Entry) string {
	var b strings.Builder
	b.WriteString(th.Dim(e.Event.At.Local().Format("2006-01-02 15:04")))
	b.WriteString("  ")
	b.WriteString(th.Bold(padCut(termsafe.Line(e.Actor), c.actor)))
	b.WriteString("  ")
	if c.number > 0 {
		b.WriteString(th.Cyan(padCut(termsafe.Line(e.Number), c.number)))
		b.WriteString("  ")
	}
	if e.Number != "" && e.Title != "" {
		b.WriteString(termsafe.Line(e.Title) + ": ")
	}
	b.WriteString(termsafe.Line(e.What))
	b.WriteByte('\n')
	return b.String()
}

// padCut is s cut to w cells with "…", or padded to them.
func padCut(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

// activityTable is the feed's columns for a pipe, csv and tsv.
func activityTable() *output.Table {
	return &output.Table{Columns: []output.Column{
		{Header: "AT"},
		{Header: "ACTOR"},
		{Header: "EMAIL"},
		{Header: "NUMBER"},
		{Header: "TITLE"},
		{Header: "TYPE"},
		{Header: "WHAT"},
		{Header: "ID"},
	}}
}

func activityRow(e activity.Entry) []string {
	email := ""
	if e.Event.Actor != nil {
		email = e.Event.Actor.Email
	}
	return []string{e.Event.At.UTC().Format(time.RFC3339), e.Actor, email, recordOf(e).Number, e.Title, string(e.Event.Type), e.What, e.Event.ID}
}
