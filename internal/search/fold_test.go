package search

import "testing"

func TestFoldTakesAccentsOffAndLowers(t *testing.T) {
	for in, want := range map[string]string{
		"Société":  "societe",
		"ÉTÉ":      "ete",
		"Łódź":     "łodz", // ł has no decomposition: SQLite keeps it too
		"ΆΛΦΑ":     "αλφα",
		"Дом":      "дом",
		"FY2023":   "fy2023",
		"naïve":    "naive",
		"Nguyễn":   "nguyen",
		"e\u0301t": "et", // an accent typed apart
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFoldTableIsOneForOne(t *testing.T) {
	from, to := FoldTable()
	if len([]rune(from)) != len([]rune(to)) || len([]rune(from)) < 300 {
		t.Fatalf("table of %d letters to %d", len([]rune(from)), len([]rune(to)))
	}
}
