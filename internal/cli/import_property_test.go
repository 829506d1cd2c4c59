package cli

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// TestImportNeverWritesRowsNotInTheSheet is the property on the real
// server: an export of Falcon (grown by a few rows), with random rows
// dropped, random IDs cleared, random titles and bodies edited and
// random foreign rows added on taken and free numbers, imported with no
// flag, changes no deal row whose ID is not in the sheet, and on a row
// whose ID is, only the fields the sheet edited.
func TestImportNeverWritesRowsNotInTheSheet(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(seed, 25))
			ls := startLiveServer(t, 0)
			more := writeSheet(t, "Number,Kind,Title,Body\n1.3,request,Share register,Current and historic.\n3,section,Tax,\n"+
				"3.1,request,Tax returns,Last six years.\n3.2,request,Tax clearances,\n")
			mustLive(t, ls.URL, "import", more)
			file := filepath.Join(t.TempDir(), "falcon.csv")
			mustLive(t, ls.URL, "export", "-o", file)
			before := liveRows(t, ls.URL)

			recs := readCSV(t, file)
			col := map[string]int{}
			for i, h := range recs[0] {
				col[h] = i
			}
			for _, h := range []string{"Number", "Kind", "Title", "Body", "Updated", "ID"} {
				if _, ok := col[h]; !ok {
					t.Fatalf("the export has no %s column: %q", h, recs[0])
				}
			}
			out := [][]string{recs[0]}
			inSheet, edited, used := map[string]bool{}, map[string][]string{}, map[string]bool{}
			for _, rec := range recs[1:] {
				if rng.IntN(10) < 2 && rec[col["Kind"]] == string(api.KindRequest) {
					continue // dropped
				}
				used[rec[col["Number"]]] = true
				var fields []string
				if rng.IntN(3) == 0 {
					rec[col["Title"]], fields = rec[col["Title"]]+" (edited)", append(fields, "title")
				}
				if rng.IntN(3) == 0 {
					rec[col["Body"]], fields = "Edited body.", append(fields, "body")
				}
				if rng.IntN(3) == 0 {
					rec[col["ID"]], rec[col["Updated"]] = "", "" // a row like any foreign one
				} else {
					inSheet[rec[col["ID"]]], edited[rec[col["ID"]]] = true, fields
				}
				out = append(out, rec)
			}
			for _, n := range []string{"1.1", "1.2", "2.1", "3.2", "1.7", "2.5", "3.9"} {
				if used[n] || rng.IntN(2) == 0 {
					continue
				}
				rec := make([]string, len(recs[0]))
				rec[col["Number"]], rec[col["Kind"]], rec[col["Title"]], rec[col["Body"]] = n, "request", "Foreign "+n, "Another document."
				out = append(out, rec)
			}
			writeCSV(t, file, out)

			r := runLive(t, ls.URL, "import", file)
			if r.code != 0 && r.code != cmdutil.ExitConflict {
				t.Fatalf("import: exit %d:\n%s", r.code, r.err)
			}
			now := map[string]api.DealRequest{}
			for _, a := range liveRows(t, ls.URL) {
				now[a.ID] = a
			}
			for _, b := range before {
				a := now[b.ID]
				changed := map[string]bool{"title": a.Title != b.Title, "body": a.Body != b.Body,
					"number": a.Number != b.Number, "kind": a.Kind != b.Kind, "status": a.Status != b.Status,
					"due_date": deref(a.DueDate) != deref(b.DueDate), "assignee": deref(a.AssigneeID) != deref(b.AssigneeID)}
				if inSheet[b.ID] && slices.Contains(edited[b.ID], "title") && a.Title != b.Title+" (edited)" {
					t.Errorf("%s: the sheet's edit of its title did not land: %q", b.Number, a.Title)
				}
				for f, c := range changed {
					if c && (!inSheet[b.ID] || !slices.Contains(edited[b.ID], f)) {
						t.Errorf("%s's %s changed (in the sheet by ID: %v, edited: %v): was %+v, now %+v", b.Number, f, inSheet[b.ID], edited[b.ID], b, a)
					}
				}
			}
		})
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func writeCSV(t *testing.T, path string, recs [][]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
