package sheets

import (
	"testing"
	"time"
)

func TestParseUpdated(t *testing.T) {
	at := time.Date(2026, 11, 23, 15, 42, 10, 734561000, time.UTC)
	for _, c := range []struct {
		cell      string
		date1904  bool
		want      time.Time
		precision time.Duration
	}{
		{at.Format(UpdatedLayout), false, at, time.Microsecond},
		{"2026-11-23T15:42:10Z", false, at.Truncate(time.Second), time.Second},
		{"2026-11-23T16:42:10+01:00", false, at.Truncate(time.Second), time.Second},
		{"2026-11-23 15:42", false, at.Truncate(time.Minute), time.Minute},
		{"11/23/2026 15:42", false, at.Truncate(time.Minute), time.Minute},                       // Excel, US
		{"23/11/2026 15:42:10", false, at.Truncate(time.Second), time.Second},                    // Excel, UK
		{"03/11/2026 15:42", false, time.Date(2026, 3, 11, 15, 42, 0, 0, time.UTC), time.Minute}, // both readings: the earlier
		{"46349.65429090927", false, at.Round(time.Millisecond), time.Millisecond},               // what excelize writes for at
		{"44887.65429090927", true, at.Round(time.Millisecond), time.Millisecond},                // the same in the 1904 system
	} {
		got, precision, err := parseUpdated(c.cell, c.date1904)
		if err != nil || !got.Equal(c.want) || precision != c.precision {
			t.Errorf("parseUpdated(%q) = %s, %s, %v; want %s, %s", c.cell, got, precision, err, c.want, c.precision)
		}
	}
	if _, _, err := parseUpdated("last week", false); err == nil {
		t.Error("parseUpdated(last week): no error")
	}
}

// A foreign sheet's ID column ("DD-001", "7") is not taken for the
// server's ids; the export's is, with its Updated.
func TestIdentityColumnsOfAnExportOnly(t *testing.T) {
	s, err := ReadCSV("x.csv", []byte("Number,Title,ID,Updated\n1,A,DD-001,2026-11-23T15:42:10Z\n2,B,0190A000-0000-7000-8000-000000000001,2026-11-23T15:42:10Z\n3,C,0190a000-0000-7000-8000-000000000002,someday\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Rows[0]; r.ID != "" || !r.Updated.IsZero() {
		t.Errorf("foreign id read: %+v", r)
	}
	if r := s.Rows[1]; r.ID != "0190a000-0000-7000-8000-000000000001" || r.Updated.IsZero() {
		t.Errorf("export id: %+v", r)
	}
	if len(s.Problems) != 1 || s.Problems[0].Line != 4 || s.Problems[0].Column != "Updated" {
		t.Errorf("problems: %+v", s.Problems)
	}
	if len(s.Ignored) != 0 {
		t.Errorf("ignored: %v", s.Ignored)
	}
}

// FuzzParseUpdated: any cell either fails or gives a UTC time with a
// precision, and never panics.
func FuzzParseUpdated(f *testing.F) {
	f.Add("2026-11-23T15:42:10.734561Z", false)
	f.Add("46349.65429090927", true)
	f.Add("11/23/2026 15:42", false)
	f.Add("1e308", false)
	f.Fuzz(func(t *testing.T, cell string, d1904 bool) {
		got, precision, err := parseUpdated(cell, d1904)
		if err == nil && (precision <= 0 || got.Location() != time.UTC) {
			t.Fatalf("parseUpdated(%q) = %s, %s", cell, got, precision)
		}
	})
}
