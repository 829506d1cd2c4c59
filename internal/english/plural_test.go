package english

import "testing"

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "rows"}, {1, "row"}, {2, "rows"}, {-1, "rows"}} {
		if got := Plural(c.n, "row", "rows"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
