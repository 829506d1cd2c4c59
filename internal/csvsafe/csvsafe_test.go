package csvsafe

import "testing"

func TestNeutralize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"},
		{"+1", "'+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"'=1", "''=1"},   // already an apostrophe: one more, so it reads back
		{"''+1", "'''+1"}, // however many
		{"'Twas", "'Twas"},
		{"plain", "plain"},
		{"a=b", "a=b"},
		{" =1", " =1"},
		{"", ""},
		{"'", "'"},
		{"2026-03-01", "2026-03-01"},
	} {
		if got := Neutralize(c.in); got != c.want {
			t.Errorf("Neutralize(%q) = %q, want %q", c.in, got, c.want)
		}
		if back := Restore(Neutralize(c.in)); back != c.in {
			t.Errorf("Restore(Neutralize(%q)) = %q", c.in, back)
		}
	}
}

func TestRestoreLeavesOrdinaryApostrophes(t *testing.T) {
	for _, s := range []string{"'Twas the night", "'", "''", "don't", "'quoted'"} {
		if got := Restore(s); got != s {
			t.Errorf("Restore(%q) = %q, want it unchanged", s, got)
		}
	}
	if got := Restore("'=1+1"); got != "=1+1" {
		t.Errorf("Restore of a guarded formula = %q", got)
	}
}

func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{"=1", "'=1", "'", "-", "@x", "\t", "\r\n=", "abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Neutralize(s)
		if Restore(n) != s {
			t.Fatalf("Restore(Neutralize(%q)) = %q", s, Restore(n))
		}
		if n != "" && n[0] != '\'' && needsGuard(n) {
			t.Fatalf("Neutralize(%q) = %q still starts a formula", s, n)
		}
	})
}
