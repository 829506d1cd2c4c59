package cli

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// exportWith exports the deal to a csv, sets title on the rows named in
// retitle, and appends rows (number, kind, title) that are new to it.
func exportWith(t *testing.T, ts *liveAPI, retitle map[string]string, add [][3]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "list.csv")
	run(t, ts, runOpts{}, "export", "-o", path).must(t, 0)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, rec := range recs[1:] {
		if title, ok := retitle[rec[col["Number"]]]; ok {
			rec[col["Title"]] = title
		}
	}
	for _, a := range add {
		rec := make([]string, len(recs[0]))
		rec[col["Number"]], rec[col["Kind"]], rec[col["Title"]] = a[0], a[1], a[2]
		recs = append(recs, rec)
	}
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := csv.NewWriter(out).WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	out.Close()
	return path
}

// TestImportUndo: a run that retitled a row and created two sections
// with their requests is taken back by `import --undo` (the last run of this
// machine), except the request a colleague answered since, which is kept
// with its section and listed (exit 5); the dry run says so first and
// writes nothing.
func TestImportUndo(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	same := runOpts{env: map[string]string{"XDG_CACHE_HOME": t.TempDir()}} // one machine's remembered runs
	before := ts.row(t, "1.2")
	file := exportWith(t, ts, map[string]string{"1.2": "Tax returns, last five years"},
		[][3]string{{"3", "section", "Legal"}, {"3.1", "request", "Material contracts"}, {"3.2", "request", "Litigation"},
			{"4", "section", "Property"}, {"4.1", "request", "Title deeds"}})
	r := run(t, ts, same, "import", file)
	r.must(t, 0)
	if !strings.Contains(r.err, "import --undo") {
		t.Errorf("the import does not say how to take it back:\n%s", r.err)
	}
	rows := byNumber(ts.rows(t))
	if rows["1.2"].Title != "Tax returns, last five years" || rows["3.2"].ID == "" {
		t.Fatalf("the import did not write: %+v", rows)
	}
	var evs []api.Event
	ts.read(t, testKey, "/deals/"+ts.dealID()+"/events?limit=1000", &evs)
	for _, ev := range evs {
		var d struct{ Batch string }
		_ = json.Unmarshal(ev.Data, &d)
		if d.Batch == "" {
			t.Errorf("the import's %s event has no batch: %s", ev.Type, ev.Data)
		}
	}

	// A colleague on the other side answers 3.2.
	run(t, ts, runOpts{env: map[string]string{"DEALCTL_API_KEY": bobFalconKey}}, "answer", "3.2", "-m", "None pending.").must(t, 0)

	dry := run(t, ts, same, "import", "--undo", "--dry-run")
	dry.must(t, 5, "would delete", "would put back")
	if rows := byNumber(ts.rows(t)); rows["3.1"].ID == "" || rows["1.2"].Title != "Tax returns, last five years" {
		t.Fatal("the dry run wrote")
	}

	undo := run(t, ts, same, "import", "--undo")
	undo.must(t, 5)
	if !strings.Contains(undo.err, "3.2: Bob Reyes posted an answer") {
		t.Errorf("the conflict does not name the answer and who gave it:\n%s", undo.err)
	}
	rows = byNumber(ts.rows(t))
	sameFields(t, rows["1.2"], before)
	for _, n := range []string{"3.1", "4.1", "4"} {
		if _, ok := rows[n]; ok {
			t.Errorf("%s, created by the run and untouched since, was not deleted", n)
		}
	}
	if rows["3.2"].ID == "" || rows["3"].ID == "" {
		t.Error("the answered 3.2, or its section, was deleted")
	}

	// Again: only the same conflicts; nothing else to do.
	run(t, ts, same, "import", "--undo").must(t, 5)
	if got := len(ts.rows(t)); got != len(rows) {
		t.Errorf("a second undo changed the list: %d rows, want %d", got, len(rows))
	}
}
