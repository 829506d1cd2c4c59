package sheets

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
)

// EncodingError is a text file whose bytes cannot be turned into text
// without guessing or losing characters. Nothing is read from it.
type EncodingError struct {
	File   string
	Line   int // 1-based; 0 when the trouble is not on one line
	Reason string
}

func (e *EncodingError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: line %d: %s", e.File, e.Line, e.Reason)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Reason)
}

// CheckEncoding reports whether name is an encoding --encoding accepts
// (the WHATWG names and labels: utf-8, windows-1252, latin1,
// iso-8859-2, macintosh, utf-16le, shift_jis, ...).
func CheckEncoding(name string) error {
	if _, err := lookupEncoding(name); err != nil {
		return err
	}
	return nil
}

func lookupEncoding(name string) (encoding.Encoding, error) {
	if strings.EqualFold(name, "utf-16") {
		// UTF-16 without an order is little-endian, as Windows writes it.
		name = "utf-16le"
	}
	enc, err := htmlindex.Get(name)
	if err != nil {
		return nil, fmt.Errorf("unknown encoding %q: use utf-8, windows-1252 (also latin1), iso-8859-2, iso-8859-15, macintosh, utf-16le, utf-16be, or another WHATWG encoding name", name)
	}
	return enc, nil
}

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// decodeText turns a text file into UTF-8, and never lets bytes through
// that are not: a byte-order mark decides (UTF-8, UTF-16); then the
// encoding asked for (want); then UTF-8 when the bytes are valid UTF-8,
// UTF-16 when every other byte is NUL, and otherwise Windows-1252, which
// is what LibreOffice and Excel write a csv in by default. Every guess
// past plain UTF-8 comes back as a note for the user.
func decodeText(file string, data []byte, want string) (text []byte, note string, err error) {
	fail := func(line int, format string, a ...any) ([]byte, string, error) {
		return nil, "", &EncodingError{File: file, Line: line, Reason: fmt.Sprintf(format, a...)}
	}
	bom := ""
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		bom, data = "utf-8", data[3:]
	case bytes.HasPrefix(data, bomUTF16LE):
		bom, data = "utf-16le", data[2:]
	case bytes.HasPrefix(data, bomUTF16BE):
		bom, data = "utf-16be", data[2:]
	}
	name := bom
	if want != "" {
		enc, err := lookupEncoding(want)
		if err != nil {
			return nil, "", err
		}
		canon, _ := htmlindex.Name(enc)
		if bom != "" && canon != bom {
			return fail(0, "the file starts with a %s byte-order mark, yet --encoding says %s: leave --encoding out (the mark says how the file is written)", bom, want)
		}
		name = canon
	}
	if name == "" {
		name = sniffEncoding(data)
		switch name {
		case "binary":
			if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
				return fail(0, "this is a zip file (an .xlsx workbook?), not text: give it the .xlsx extension")
			}
			return fail(0, "this holds binary data (NUL bytes), not text: save the sheet as .csv or .xlsx (or, if it is UTF-16 text, give --encoding utf-16le)")
		case "mixed":
			line := lineOf(data, firstInvalidUTF8(data))
			return fail(line, "the file is UTF-8 except for bytes on this line that are not (the file mixes encodings, e.g. rows pasted from a file saved as Windows-1252): retype the accented letters and symbols on that line, or give --encoding to read the whole file one way")
		case "windows-1252":
			note = fmt.Sprintf("%s is not UTF-8: read it as Windows-1252, the encoding LibreOffice and Excel give a csv by default; if accents or symbols look wrong in the plan, name the file's encoding with --encoding (e.g. macintosh, iso-8859-2)", file)
		case "utf-16le", "utf-16be":
			note = fmt.Sprintf("%s has no byte-order mark but reads as %s text: read it so", file, strings.ToUpper(name))
		}
	}
	if name == "utf-8" {
		if !utf8.Valid(data) {
			line := lineOf(data, firstInvalidUTF8(data))
			return fail(line, "this line is not UTF-8: give the file's encoding with --encoding (LibreOffice's and Excel's default csv encoding is windows-1252)")
		}
		return data, note, nil
	}
	enc, err := lookupEncoding(name)
	if err != nil {
		return nil, "", err
	}
	out, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return fail(0, "not readable as %s text: %v", name, err)
	}
	// A decoder writes U+FFFD for what it cannot read: a byte Windows-1252
	// leaves undefined, half a UTF-16 pair. Those characters would be lost.
	if lost := bytes.Count(out, []byte("\uFFFD")) - replacementsIn(data, name); lost > 0 {
		line := lineOf(out, bytes.Index(out, []byte("\uFFFD")))
		return fail(line, "this line has bytes that are not %s text, so characters would be lost: give the file's real encoding with --encoding, or save it again as UTF-8", name)
	}
	return out, note, nil
}

// sniffEncoding names how a file without a byte-order mark is written:
// "utf-8", "utf-16le"/"utf-16be" (every other byte NUL), "windows-1252"
// (not UTF-8 and nothing in it is), "mixed" (UTF-8 sequences and bytes
// that are not) or "binary".
func sniffEncoding(data []byte) string {
	head := data[:min(len(data), 4096)]
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		return "binary"
	}
	if nul := bytes.Count(head, []byte{0}); nul > 0 {
		even, odd := 0, 0
		for i, b := range head {
			if b == 0 {
				if i%2 == 0 {
					even++
				} else {
					odd++
				}
			}
		}
		half := len(head) / 2
		switch {
		case odd*10 >= half*9 && even*10 < half:
			return "utf-16le"
		case even*10 >= half*9 && odd*10 < half:
			return "utf-16be"
		case nul*10 > len(head):
			return "binary"
		}
		// A few stray NULs in text: the rows that hold them are named
		// when the list is checked.
	}
	if utf8.Valid(data) {
		return "utf-8"
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r != utf8.RuneError && size > 1 {
			return "mixed"
		}
		i += size
	}
	return "windows-1252"
}

// replacementsIn counts the U+FFFD characters a file itself holds, which
// decoding keeps and which are not a loss.
func replacementsIn(data []byte, name string) int {
	var order binary.ByteOrder
	switch name {
	case "utf-16le":
		order = binary.LittleEndian
	case "utf-16be":
		order = binary.BigEndian
	default:
		return 0 // a single-byte encoding has no U+FFFD of its own
	}
	n := 0
	for i := 0; i+1 < len(data); i += 2 {
		if order.Uint16(data[i:]) == 0xFFFD {
			n++
		}
	}
	return n
}

func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// lineOf is the 1-based line holding byte offset off.
func lineOf(data []byte, off int) int {
	if off < 0 {
		return 0
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}
