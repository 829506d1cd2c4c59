package exporters

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/internal/api"
)

// internalExport is a list where the owning side's internal content shows
// the ways it can: a latest answer, a file and a link the server marks
// internal on the rows, and, with messages, an internal note with a file
// the server did not mark (as a server without the mark sends it).
func internalExport(withMessages bool) *Export {
	at := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	e := &Export{
		Deal: api.Deal{ID: "d", Name: "Project Falcon", Codename: "Falcon"},
		Now:  at,
		Rows: []api.DealRequest{
			{ID: "r-1", Kind: api.KindRequest, Number: "1.1", Title: "Accounts", Status: api.StatusOpen, UpdatedAt: at,
				LatestAnswer: &api.AnswerPreview{MessageID: "m-int", Preview: "SECRET-ANSWER price cap", Internal: true},
				Files: []api.File{
					{VersionID: "v-shared", Kind: api.FileKindFile, Name: ptr2("shared.pdf")},
					{VersionID: "v-int", Kind: api.FileKindFile, Name: ptr2("SECRET-FILE.pdf"), Internal: true},
					{VersionID: "v-link", Kind: api.FileKindLink, URL: ptr2("https://secret.example/draft"), Internal: true},
				}},
			{ID: "r-2", Kind: api.KindRequest, Number: "1.2", Title: "Minutes", Status: api.StatusOpen, UpdatedAt: at,
				LatestAnswer: &api.AnswerPreview{MessageID: "m-2", Preview: "Shared answer"}},
		},
	}
	if withMessages {
		e.Rows[0].Files = append(e.Rows[0].Files, api.File{VersionID: "v-unmarked", Kind: api.FileKindFile, Name: ptr2("SECRET-UNMARKED.xlsx")})
		e.Messages = map[string][]api.Message{
			"r-1": {
				{ID: "m-shared", Kind: api.MessageResponse, Text: "Here are the accounts.", PostedAt: &at,
					Files: []api.File{{VersionID: "v-shared", Kind: api.FileKindFile, Name: ptr2("shared.pdf")}}},
				{ID: "m-note", Kind: api.MessageInternalNote, Text: "SECRET-NOTE price them down", PostedAt: &at,
					Files: []api.File{{VersionID: "v-unmarked", Kind: api.FileKindFile, Name: ptr2("SECRET-UNMARKED.xlsx")}}},
				{ID: "m-int", Kind: api.MessageResponse, Internal: true, Text: "SECRET-ANSWER price cap", PostedAt: &at,
					Files: []api.File{{VersionID: "v-int", Kind: api.FileKindFile, Name: ptr2("SECRET-FILE.pdf"), Internal: true},
						{VersionID: "v-link", Kind: api.FileKindLink, URL: ptr2("https://secret.example/draft"), Internal: true}}},
			},
			"r-2": {{ID: "m-2", Kind: api.MessageResponse, Text: "Shared answer", PostedAt: &at}},
		}
	}
	return e
}

// writtenText is what a reader of the written file sees: the bytes of a
// text format, every cell, printed header and property of a workbook.
func writtenText(t *testing.T, format string, e *Export) string {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "csv":
		err = WriteCSV(&buf, e, false)
	case "json":
		err = WriteJSON(&buf, e)
	case "md":
		err = WriteMarkdown(&buf, e)
	case "xlsx":
		err = WriteXLSX(&buf, e)
	}
	if err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	if format != "xlsx" {
		return buf.String()
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	for _, sh := range f.GetSheetList() {
		rows, _ := f.GetRows(sh)
		for _, r := range rows {
			b.WriteString(strings.Join(r, "\t") + "\n")
		}
		if hf, err := f.GetHeaderFooter(sh); err == nil {
			b.WriteString(hf.OddHeader + "\n")
		}
	}
	if p, err := f.GetDocProps(); err == nil {
		b.WriteString(p.Subject + " " + p.Keywords + "\n")
	}
	return b.String()
}

// TestEveryFormatLeavesInternalContentOut: every writer, with and without
// messages, leaves out internal answers, notes, files and links unless
// the export keeps them on purpose, and then says so where it has room.
func TestEveryFormatLeavesInternalContentOut(t *testing.T) {
	secrets := []string{"SECRET", "secret.example"}
	for _, format := range []string{"csv", "json", "md", "xlsx"} {
		for _, withMessages := range []bool{false, true} {
			if format == "csv" && withMessages {
				continue // csv has no room for conversations
			}
			e := internalExport(withMessages)
			got := writtenText(t, format, e)
			for _, s := range secrets {
				if strings.Contains(got, s) {
					t.Errorf("%s (messages %v) holds %q by default:\n%s", format, withMessages, s, got)
				}
			}
			if (format != "md" || withMessages) && (!strings.Contains(got, "shared.pdf") || !strings.Contains(got, "Shared answer")) {
				t.Errorf("%s (messages %v) lost shared content:\n%s", format, withMessages, got)
			}
			if withMessages && format != "json" && !strings.Contains(got, "Here are the accounts.") {
				t.Errorf("%s: the newest shared answer does not stand in for the internal one:\n%s", format, got)
			}
			if !slices.ContainsFunc(e.Rows[0].Files, func(f api.File) bool { return f.Internal }) || e.Rows[0].LatestAnswer == nil {
				t.Errorf("%s: writing changed the export it was given", format)
			}

			e.Internal = true
			got = writtenText(t, format, e)
			var want []string
			if format != "md" || withMessages { // md shows no row's answer or files, only conversations
				want = append(want, "SECRET-FILE.pdf", "https://secret.example/draft", "SECRET-ANSWER")
			}
			if withMessages {
				want = append(want, "SECRET-NOTE", "SECRET-UNMARKED.xlsx")
			}
			if format == "md" || format == "xlsx" {
				want = append(want, InternalBanner)
			}
			for _, s := range want {
				if !strings.Contains(got, s) {
					t.Errorf("%s (messages %v) with Internal lacks %q:\n%s", format, withMessages, s, got)
				}
			}
		}
	}
}

func TestInternalsCounts(t *testing.T) {
	if got, want := internalExport(false).Internals(), (InternalCounts{Answers: 1, Files: 1, Links: 1}); got != want {
		t.Errorf("without messages: %+v, want %+v (an unmarked file is not known without its message)", got, want)
	}
	if got, want := internalExport(true).Internals(), (InternalCounts{Messages: 2, Answers: 1, Files: 2, Links: 1}); got != want {
		t.Errorf("with messages: %+v, want %+v", got, want)
	}
	if got := internalExport(true).Internals().String(); got != "2 internal messages, 1 latest answer, 2 files, 1 link" {
		t.Errorf("String() = %q", got)
	}
}

// TestNoBannerWithoutInternalContent: --include-internal on an export
// that holds nothing internal (a counterparty's) does not claim it does.
func TestNoBannerWithoutInternalContent(t *testing.T) {
	e := sampleExport()
	e.Internal = true
	for _, format := range []string{"md", "xlsx"} {
		if got := writtenText(t, format, e); strings.Contains(got, "INTERNAL") {
			t.Errorf("%s carries the banner with nothing internal:\n%s", format, got)
		}
	}
}

// TestConversationsTellWhatAPlainServerDoesNotMark: from a server without
// the internal marks, the conversations read for the purpose tell which
// answer, file and link are internal; they are not written themselves.
func TestConversationsTellWhatAPlainServerDoesNotMark(t *testing.T) {
	e := internalExport(true)
	e.Conversations, e.Messages = e.Messages, nil
	for i := range e.Rows {
		if a := e.Rows[i].LatestAnswer; a != nil {
			a.Internal = false
		}
		for j := range e.Rows[i].Files {
			e.Rows[i].Files[j].Internal = false
		}
	}
	if got, want := e.Internals(), (InternalCounts{Answers: 1, Files: 2, Links: 1}); got != want {
		t.Errorf("Internals() = %+v, want %+v", got, want)
	}
	for _, format := range []string{"csv", "json", "md", "xlsx"} {
		got := writtenText(t, format, e)
		for _, s := range []string{"SECRET", "secret.example", `"messages"`, MessagesSheet} {
			if strings.Contains(got, s) {
				t.Errorf("%s holds %q:\n%s", format, s, got)
			}
		}
		if format != "md" && !strings.Contains(got, "Here are the accounts.") {
			t.Errorf("%s: the newest shared answer does not stand in for the internal one:\n%s", format, got)
		}
	}
}
