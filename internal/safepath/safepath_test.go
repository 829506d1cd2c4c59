package safepath

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPart(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"accounts.pdf", "accounts.pdf"},
		{"../x", "_x"},
		{"a/../../x", "a_.._.._x"},
		{"/abs/evil.txt", "_abs_evil.txt"},
		{`..\x`, "_x"},
		{"..", ""},
		{".bashrc", "bashrc"},
		{"line\r\nbreak.txt", "line__break.txt"},
		{"report \u202egpj.exe", "report _gpj.exe"},
		{"CON", "_CON"},
		{"nul.txt", "_nul.txt"},
		{"com1", "_com1"},
		{"console.txt", "console.txt"},
		{"a:b*c?.txt", "a_b_c_.txt"},
		{"trailing. ", "trailing"},
		{"bad\xffbyte", "bad_byte"},
		{"zero\u200bwidth", "zero_width"},
		{"Résumé 2023.pdf", "Résumé 2023.pdf"},
	} {
		if got := Part(c.in); got != c.want {
			t.Errorf("Part(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPartCutsKeepingExtension(t *testing.T) {
	long := strings.Repeat("é", 300) + ".pdf"
	got := Part(long)
	if len(got) > MaxPartBytes || !strings.HasSuffix(got, ".pdf") || !utf8.ValidString(got) {
		t.Errorf("Part of a %d-byte name: %d bytes, %q", len(long), len(got), got[len(got)-8:])
	}
}

func TestJoinRefusesWhatPartWouldNotMake(t *testing.T) {
	dir := t.TempDir()
	for _, part := range []string{"../x", "a/b", "..", "", "/etc/passwd", "."} {
		if p, err := Join(dir, part); err == nil {
			t.Errorf("Join(%q) = %q, want a refusal", part, p)
		}
	}
	if p, err := Join(dir, "ok.txt"); err != nil || p != filepath.Join(dir, "ok.txt") {
		t.Errorf("Join(ok.txt) = %q, %v", p, err)
	}
}

// FuzzPart: whatever the server sends, Part's name joins to a direct
// child of the folder, with no character a terminal acts on.
func FuzzPart(f *testing.F) {
	for _, s := range []string{"../x", "a/../../x", "/abs", `..\x`, "x\r\ny", "\u202e", "CON.txt", "..", ". ."} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, s string) {
		part := Part(s)
		if part == "" {
			return
		}
		if _, err := Join(dir, part); err != nil {
			t.Fatalf("Part(%q) = %q, which Join refuses: %v", s, part, err)
		}
		if strings.ContainsAny(part, "/\\\x00\r\n") || strings.HasPrefix(part, ".") || len(part) > MaxPartBytes || !utf8.ValidString(part) {
			t.Fatalf("Part(%q) = %q", s, part)
		}
	})
}
