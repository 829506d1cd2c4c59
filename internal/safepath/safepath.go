// Package safepath turns names that came from a server into paths on this
// machine. A file name, a request number or a deal's name is text someone
// on either side of a deal chose (or a hostile server sent): joined to a
// folder as it is, "../../.config/autostart/x" writes outside it, "CON"
// cannot be created on Windows, and a newline in a name adds a false line
// to a list of paths piped to another program. Every command that writes a
// file under a folder the user chose names it through Part and checks the
// result with Join, so the class of bug is gone, not one instance of it.
package safepath

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/termsafe"
)

// MaxPartBytes bounds a path part: most file systems take 255 bytes, and
// the part may get a prefix (a request number) or a suffix to be unique.
const MaxPartBytes = 200

// Part returns s as one file name, safe to join to a folder on any OS:
// path separators, characters Windows refuses (<>:"|?*), control and
// bidirectional characters and invalid UTF-8 become '_'; leading dots
// and spaces go (no "..", no hidden file), and so do trailing dots and
// spaces (Windows drops them); a name Windows reserves (CON, NUL, COM1…)
// gets a leading '_'; the name is cut to MaxPartBytes, keeping its
// extension. The result is "" when nothing usable is left: the caller
// falls back to another name.
func Part(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1, r == '/', r == '\\', strings.ContainsRune(`<>:"|?*`, r),
			termsafe.Acts(r), !unicode.IsPrint(r) && r != ' ':
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	name := strings.TrimRight(strings.TrimLeft(b.String(), ". "), ". ")
	if reservedOnWindows(name) {
		name = "_" + name
	}
	return cut(name, MaxPartBytes)
}

// reservedOnWindows reports the device names Windows will not create as
// files, with or without an extension ("nul.txt" is the device too).
func reservedOnWindows(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	switch strings.ToUpper(strings.TrimRight(stem, " ")) {
	case "CON", "PRN", "AUX", "NUL",
		"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9":
		return true
	}
	return false
}

// cut shortens name to at most max bytes on a character boundary, keeping
// a short extension so the file still opens with the right program.
func cut(name string, max int) string {
	if len(name) <= max {
		return name
	}
	ext := filepath.Ext(name)
	if len(ext) > 16 {
		ext = ""
	}
	stem := name[:max-len(ext)]
	for !utf8.ValidString(stem) {
		stem = stem[:len(stem)-1]
	}
	return strings.TrimRight(stem, ". ") + ext
}

// Join returns dir joined with part, refusing a result that is not a
// direct child of dir. Part's output always passes; the check is there so
// a future caller that forgets Part fails closed instead of writing
// outside the folder the user chose.
func Join(dir, part string) (string, error) {
	p := filepath.Join(dir, part)
	if err := Inside(dir, p); err != nil {
		return "", err
	}
	if filepath.Dir(p) != filepath.Clean(dir) {
		return "", fmt.Errorf("refusing to write %q: a file name from the server must not name a folder", part)
	}
	return p, nil
}

// Inside returns an error unless path lies within dir (lexically, after
// cleaning both): the last check before a file is written.
func Inside(dir, path string) error {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	absPath, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(absDir, absPath)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("refusing to write %s: it is outside the folder %s", path, dir)
	}
	return nil
}
