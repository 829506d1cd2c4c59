package iostreams

import "testing"

func TestColorWanted(t *testing.T) {
	cases := []struct {
		name string
		tty  bool
		env  map[string]string
		want bool
	}{
		{"terminal", true, nil, true},
		{"pipe", false, nil, false},
		{"NO_COLOR wins", true, map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, false},
		{"CLICOLOR_FORCE on a pipe", false, map[string]string{"CLICOLOR_FORCE": "1"}, true},
		{"CLICOLOR=0", true, map[string]string{"CLICOLOR": "0"}, false},
		{"dumb terminal", true, map[string]string{"TERM": "dumb"}, false},
	}
	for _, c := range cases {
		got := colorWanted(c.tty, func(k string) string { return c.env[k] })
		if got != c.want {
			t.Errorf("%s: colorWanted = %v, want %v", c.name, got, c.want)
		}
	}
}
