package sheets

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/spreadsheets/golden")

const templates = "../../testdata/spreadsheets"

// TestTemplatesGolden reads each template and compares what was read
// (header row, ignored columns, rows with sections and parents, problems)
// with its golden file.
func TestTemplatesGolden(t *testing.T) {
	cases := []struct{ file, sheet string }{
		{"buyer-ddrl.xlsx", ""},
		{"bank-1904.xlsx", "DD Requests"},
		{"libreoffice-tracker.xlsx", ""},
		{"advisor-semicolon.csv", ""},
		{"advisor-libreoffice-1252.csv", ""},
		{"advisor-unicode-text.txt", ""},
		{"description-only.xlsx", ""},
		{"hidden-column-row.xlsx", ""},
		{"merged-headings.xlsx", ""},
		{"merged-headings-libreoffice.csv", ""},
		{"excel-number-7.10.xlsx", ""},
		{"unknown-values.csv", ""},
		{"german-excel-dates.xlsx", ""},
		{"german-excel-dates-saved.csv", ""},
		{"bank-tracker-totals.xlsx", ""},
		{"counsel-ddrl-roman.xlsx", ""},
		{"pe-tracker-lettered.xlsx", ""},
		{"vdr-qa-export.csv", ""},
		{"unknown-number-header.csv", ""},
		{"formulas-without-values.xlsx", ""},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			s, err := ReadFile(filepath.Join(templates, c.file), ReadOptions{Sheet: c.sheet})
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join(templates, "golden", strings.TrimSuffix(c.file, filepath.Ext(c.file))+".json")
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./exporters -update writes it)", err)
			}
			if !bytes.Equal(bytes.TrimSpace(want), got) {
				t.Errorf("%s read differently from %s:\n%s", c.file, golden, got)
			}
		})
	}
}

func TestFirstSheetWithoutHeaderNamesTheOthers(t *testing.T) {
	_, err := ReadFile(filepath.Join(templates, "bank-1904.xlsx"), ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), `"DD Requests": choose one with --sheet`) {
		t.Fatalf("err = %v, want a hint naming the DD Requests sheet", err)
	}
	_, err = ReadFile(filepath.Join(templates, "bank-1904.xlsx"), ReadOptions{Sheet: "Nope"})
	if err == nil || !strings.Contains(err.Error(), `no sheet "Nope"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestReadCSVDelimitersAndEncodings(t *testing.T) {
	want := []string{"1", "1.1"}
	for name, data := range map[string]string{
		"comma":     "Number,Title\n1,Corporate\n1.1,Certificate\n",
		"semicolon": "Number;Title\n1;Corporate\n1.1;Certificate, certified\n",
		"tab":       "Number\tTitle\n1\tCorporate\n1.1\tCertificate\n",
		"bom":       "\uFEFFNumber,Title\r\n1,Corporate\r\n1.1,Certificate\r\n",
		"utf16":     utf16LE("Number\tTitle\r\n1\tCorporate\r\n1.1\tCertificate\r\n"),
	} {
		t.Run(name, func(t *testing.T) {
			s, err := ReadCSV(name+".csv", []byte(data))
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Rows) != 2 || s.Rows[0].Number != want[0] || s.Rows[1].Number != want[1] {
				t.Fatalf("rows = %+v", s.Rows)
			}
			if s.Rows[0].Kind != "section" || s.Rows[1].Parent != "1" {
				t.Errorf("sections not inferred: %+v", s.Rows)
			}
		})
	}
}

func utf16LE(s string) string {
	b := []byte{0xFF, 0xFE}
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return string(b)
}

func TestHeaderBelowTitleRowsAndSynonyms(t *testing.T) {
	data := "Project Falcon request list,,,\nIssued 1 March,,,\n,,,\n#,Request,Deadline,Workstream,Assigned To,Whatever\n" +
		"1,Corporate,,,,\n1.1,Articles,2026-03-01,Legal,bob@acme.example,x\n"
	s, err := ReadCSV("t.csv", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if s.HeaderLine != 4 {
		t.Errorf("header row = %d, want 4", s.HeaderLine)
	}
	if len(s.Ignored) != 1 || s.Ignored[0] != "Whatever" {
		t.Errorf("ignored = %v, want [Whatever]", s.Ignored)
	}
	r := s.Rows[1]
	if r.Line != 6 || r.DueDate != "2026-03-01" || r.Category != "legal" || r.Assignee != "bob@acme.example" {
		t.Errorf("row = %+v", r)
	}
}

func TestRowProblemsAreAllReported(t *testing.T) {
	data := "Number,Title,Priority,Due,Status,Kind\n" +
		"1,,urgentish,2026-02-31,finished,chapter\n" +
		"2,Fine,high,03/04/2026,open,request\n" +
		"2,Duplicate,,,,\n" +
		"3,Parent request,,,,request\n3.1,Child,,,,\n"
	s, err := ReadCSV("bad.csv", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.Problems {
		got = append(got, p.String())
	}
	wantParts := []string{
		"row 2, Title: the title is empty",
		"row 2, Priority: unknown priority \"urgentish\"",
		"row 2, Due: \"2026-02-31\" is not a date",
		"row 2, Status: unknown status \"finished\"",
		"row 2, Kind: unknown kind \"chapter\"",
		"row 3, Due: \"03/04/2026\" could be day/month or month/day",
		"row 4, Number: number 2 is also on row 3",
		"row 5, Kind: rows numbered 3.… sit under this request",
	}
	joined := strings.Join(got, "\n")
	for _, w := range wantParts {
		if !strings.Contains(joined, w) {
			t.Errorf("missing problem %q in:\n%s", w, joined)
		}
	}
}
