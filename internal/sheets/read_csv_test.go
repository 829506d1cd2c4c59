package sheets

import (
	"errors"
	"strings"
	"testing"
)

// TestUnterminatedQuoteIsReported: a cell whose quote is never closed
// would swallow every later line into one cell; it is an error naming the
// line, never rows merged without a word.
func TestUnterminatedQuoteIsReported(t *testing.T) {
	for name, data := range map[string]string{
		"mid-file":        "Number,Title,Priority\n1.1,Articles,high\n1.2,\"Board minutes,low\n1.3,Tax returns,medium\n1.4,Payroll,low\n",
		"no final eol":    "Number,Title\n1.1,Articles\n1.2,\"Board minutes",
		"escaped at end":  "Number,Title\n1.1,Articles\n1.2,\"Board minutes \"\"draft\"\"\n",
		"crlf":            "Number;Title\r\n1.1;Articles\r\n1.2;\"Board minutes\r\n1.3;Tax\r\n",
		"quote then text": "Number,Title\n1.1,Articles\n1.2,\"Board minutes\" (signed)\n1.3,Tax\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ReadCSV("list.csv", []byte(data))
			var me *MalformedError
			if !errors.As(err, &me) || me.Line != 3 || !strings.Contains(err.Error(), "list.csv: line 3: unterminated quote") {
				t.Fatalf("err = %v, want list.csv: line 3: unterminated quote", err)
			}
		})
	}
}

// TestStrayQuotesAreKept: what hand-made and exported csv files carry
// (quotes inside unquoted cells, doubled quotes, multi-line cells) still
// reads, row for row.
func TestStrayQuotesAreKept(t *testing.T) {
	data := "Number,Title,Body\n" +
		"1.1,5\" floppy disks,plain\n" +
		"1.2,the \"Target\" accounts,\"said \"\"yes\"\"\"\n" +
		"1.3,Minutes,\"line one\nline two\"\n" +
		"1.4,Last,\"closed\"\n"
	s, err := ReadCSV("ok.csv", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rows) != 4 {
		t.Fatalf("%d rows, want 4: %+v", len(s.Rows), s.Rows)
	}
	for i, want := range []string{"5\" floppy disks", "the \"Target\" accounts", "Minutes", "Last"} {
		if s.Rows[i].Title != want {
			t.Errorf("row %d title = %q, want %q", i, s.Rows[i].Title, want)
		}
	}
	if s.Rows[1].Body != "said \"yes\"" || s.Rows[2].Body != "line one\nline two" {
		t.Errorf("bodies = %q, %q", s.Rows[1].Body, s.Rows[2].Body)
	}
}
