package termsafe

import "testing"

func TestOneLine(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{"plain title", 0, "plain title"},
		{"  Accounts\r\nBcc: x\t\tend  ", 0, "Accounts Bcc: x end"},
		{"a\u202eb\x1b]52;c;eA==\x07", 0, "a<U+202E>b␛]52;c;eA==␇"},
		{"abcdef", 4, "abc…"},
		{"abcd", 4, "abcd"},
	} {
		if got := OneLine(c.in, c.limit); got != c.want {
			t.Errorf("OneLine(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
}
