package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/domain"
)

// An exact match wins over looser ones; a loose tier may be ambiguous.
func TestFirstTierMatches(t *testing.T) {
	t.Parallel()
	names := []string{"ann", "Ann", "ANN", "bob"}
	for _, c := range []struct {
		ref  string
		want []string
	}{
		{"Ann", []string{"Ann"}},
		{"aNN", []string{"ann", "Ann", "ANN"}},
		{"BOB", []string{"bob"}},
		{"cat", nil},
	} {
		got := domain.FirstTierMatches(names,
			func(n string) bool { return n == c.ref },
			func(n string) bool { return strings.EqualFold(n, c.ref) },
		)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q matched %v, want %v", c.ref, got, c.want)
		}
	}
}
