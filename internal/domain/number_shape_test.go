package domain

import "testing"

func TestCheckNumberShape(t *testing.T) {
	for _, c := range []struct {
		n    string
		want NumberShape
	}{
		{"2", NumberWellFormed},
		{"2.3", NumberWellFormed},
		{"A.1", NumberWellFormed},
		{"IV.2.10", NumberWellFormed},
		{"Q-0001", NumberWellFormed},
		{"A 1", NumberHasSpace},
		{"2.\u00a03", NumberHasSpace},
		{"2\t3", NumberHasSpace},
		{"2..3", NumberEmptyPart},
		{"2.", NumberEmptyPart},
		{".2", NumberEmptyPart},
		{".", NumberEmptyPart},
	} {
		if got := CheckNumberShape(c.n); got != c.want {
			t.Errorf("CheckNumberShape(%q) = %d, want %d", c.n, got, c.want)
		}
	}
}
