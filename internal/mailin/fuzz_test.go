package mailin

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse: whatever a sender's server sends, reading it never panics,
// and what it takes is valid UTF-8 within the limits, without NUL.
func FuzzParse(f *testing.F) {
	f.Add([]byte("From: a@b.example\r\nSubject: x\r\n\r\nHello.\r\n\r\nOn Mon, X wrote:\r\n> q\r\n"))
	f.Add([]byte("From: a@b.example\nContent-Type: text/html\n\n<p>Hi<blockquote>old</blockquote>"))
	f.Add([]byte("From: a@b.example\nContent-Type: multipart/mixed; boundary=B\n\n--B\nContent-Type: text/plain\n\nx\n--B\nContent-Disposition: attachment; filename=\"../a\"\n\nzz\n--B--\n"))
	f.Add([]byte("Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nd=E9j=E0\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := Parse(bytes.NewReader(raw))
		if err != nil {
			return
		}
		if !utf8.ValidString(p.Text) || strings.ContainsRune(p.Text, 0) || len(p.Attachments) > MaxAttachments {
			t.Fatalf("took %q with %d attachments", p.Text, len(p.Attachments))
		}
		for _, a := range p.Attachments {
			if a.Name == "" || strings.ContainsAny(a.Name, "/\r\n") {
				t.Fatalf("attachment named %q", a.Name)
			}
		}
	})
}

// FuzzHTMLText: any HTML makes text, without panicking, and no tag
// survives as text (an escaped one, &lt;script, is text and may).
func FuzzHTMLText(f *testing.F) {
	f.Add("<div>a<b>b</b><a href=\"https://x\">l</a></div><script>x</script>")
	f.Add("<blockquote><blockquote>x</blockquote>")
	f.Add("</div></div><p>")
	f.Fuzz(func(t *testing.T, in string) {
		out := HTMLText(strings.NewReader(in))
		if !strings.Contains(in, "&") && strings.Contains(out, "<script") {
			t.Fatalf("a tag survived: %q", out)
		}
		_ = Clean(out)
	})
}
