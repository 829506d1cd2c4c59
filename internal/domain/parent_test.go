package domain

import (
	"math/rand/v2"
	"testing"
)

func TestParentNumber(t *testing.T) {
	for _, c := range []struct{ number, parent string }{
		{"2.3", "2"},
		{"2.3.1", "2.3"},
		{"2", ""},
		{"", ""},
		{".2", ""},     // nothing before the dot: top level
		{"2.", "2"},    // an empty last part still sits under 2
		{"a..b", "a."}, // one step up, never two
		{"A.1", "A"},
	} {
		if got := ParentNumber(c.number); got != c.parent {
			t.Errorf("ParentNumber(%q) = %q, want %q", c.number, got, c.parent)
		}
	}
}

func TestNumberingHandsOutNextNumber(t *testing.T) {
	b := NewNumbering()
	for _, c := range []struct {
		take   []string
		parent string
		want   string
	}{
		{nil, "", "1"},
		{[]string{"1", "2", "7", "A"}, "", "8"},
		{[]string{"2.1", "2.9", "2.x"}, "2", "2.10"},
		{[]string{"4.1.2", "4.1.7.1"}, "4.1", "4.1.3"},
		{[]string{"9223372036854775807"}, "", "8"}, // too large to grow: ignored
		{[]string{".12"}, "", "13"},                // "" before the dot is the top level
		{nil, "5", "5.1"},
	} {
		for _, n := range c.take {
			b.Take(n)
		}
		if got := b.Next(c.parent); got != c.want {
			t.Errorf("after taking %v, Next(%q) = %q, want %q", c.take, c.parent, got, c.want)
		}
	}
}

// TestNumberingAgreesWithNextNumber: the incremental numbering is the
// rule NextNumber states, for any mix of taken numbers.
func TestNumberingAgreesWithNextNumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	parts := []string{"1", "2", "3", "10", "x", "", "0", "-1", "99"}
	for round := range 200 {
		b := NewNumbering()
		byParent := map[string][]string{}
		for range rng.IntN(30) {
			n := parts[rng.IntN(len(parts))]
			for rng.IntN(3) == 0 {
				n += "." + parts[rng.IntN(len(parts))]
			}
			b.Take(n)
			byParent[ParentNumber(n)] = append(byParent[ParentNumber(n)], n)
		}
		for _, parent := range []string{"", "1", "2", "x", "1.2", "10.x"} {
			want := NextNumber(parent, byParent[parent])
			if got := b.Next(parent); got != want {
				t.Fatalf("round %d: Next(%q) = %q, NextNumber over %v = %q", round, parent, got, byParent[parent], want)
			}
		}
	}
}
