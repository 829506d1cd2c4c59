package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// maxBodyDepth bounds how deeply a request body may nest. The API's input
// shapes nest three deep (an object, its links, a link); unknown fields
// are ignored but still scanned, so they get room, not unbounded room.
const maxBodyDepth = 16

// member is a top-level field of a scanned body: its raw JSON value and,
// when that value is an array, how many items it has, counted without
// decoding any of them.
type member struct {
	raw   []byte
	items int
}

// scanError is a body that is not strict JSON (RFC 8259 with valid UTF-8
// and no lone surrogate escapes) or that nests too deeply.
type scanError struct {
	reason string // malformed_json or nesting_too_deep
	detail string
}

func (e *scanError) Error() string { return e.reason + ": " + e.detail }

// scanObject checks, in one pass and without decoding, that data is one
// strict JSON object, and returns the raw values of its top-level members
// named by want. A name twice in one object, at any depth, is malformed:
// readers differ on which one counts. Its cost is linear in the body and
// it allocates only for what it returns and, for objects of more than
// smallObject members, a map of their names, so a
// hostile body costs no more than reading it: this is what runs before a
// caller's fields are decoded, and it is what lets limits (links per
// message) be checked on counts rather than on decoded items.
func scanObject(data []byte, want func(name string) bool) (map[string]member, error) {
	s := &bodyScanner{data: data}
	s.space()
	if s.pos >= len(data) || data[s.pos] != '{' {
		return nil, &scanError{"malformed_json", "the body must be a JSON object"}
	}
	out := map[string]member{}
	err := s.object(func(name []byte, escaped bool, raw []byte, items int) error {
		key := string(name)
		if escaped {
			if err := json.Unmarshal(append(append([]byte{'"'}, name...), '"'), &key); err != nil {
				return s.fail("a field name cannot be read")
			}
		}
		if want(key) {
			out[key] = member{raw: raw, items: items}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.space()
	if s.pos != len(data) {
		return nil, s.fail("unexpected data after the object")
	}
	return out, nil
}

type bodyScanner struct {
	data  []byte
	pos   int
	depth int
	// names holds the member names of the objects open now, innermost
	// last, for the duplicate check: slices of data, not copies.
	names []memberName
}

// memberName is a member's name as a decoder reads it: escapes
// resolved. An unescaped name is a slice of the body, not a copy.
type memberName []byte

func nameOf(raw []byte, escaped bool) memberName {
	if !escaped {
		return raw
	}
	var s string
	if err := json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s); err != nil {
		return raw // the scanner checked the escapes: not reached
	}
	return memberName(s)
}

// smallObject is the number of members an object's names are compared
// one by one; past it they go into a map, so that a hostile object of
// many members costs a map of them, not the square of their number.
const smallObject = 32

func (s *bodyScanner) fail(what string) error {
	return &scanError{"malformed_json", fmt.Sprintf("%s at byte %d", what, s.pos)}
}

func (s *bodyScanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *bodyScanner) enter() error {
	s.depth++
	if s.depth > maxBodyDepth {
		return &scanError{"nesting_too_deep", fmt.Sprintf("more than %d levels of nesting at byte %d", maxBodyDepth, s.pos)}
	}
	return nil
}

// value scans one value; for an array it returns its item count.
func (s *bodyScanner) value() (int, error) {
	s.space()
	if s.pos >= len(s.data) {
		return 0, s.fail("unexpected end of the body")
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return 0, s.object(nil)
	case c == '[':
		return s.array()
	case c == '"':
		_, _, err := s.str()
		return 0, err
	case c == 't':
		return 0, s.literal("true")
	case c == 'f':
		return 0, s.literal("false")
	case c == 'n':
		return 0, s.literal("null")
	case c == '-' || isDigit(c):
		return 0, s.number()
	}
	return 0, s.fail("unexpected character")
}

// object scans an object; each member is passed to visit when it is not
// nil (the top level only).
func (s *bodyScanner) object(visit func(name []byte, escaped bool, raw []byte, items int) error) error {
	if err := s.enter(); err != nil {
		return err
	}
	s.pos++ // '{'
	s.space()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		s.depth--
		return nil
	}
	base := len(s.names)
	defer func() { s.names = s.names[:base] }()
	var many map[string]bool // the names, once past smallObject
	for {
		s.space()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			return s.fail("expected a field name")
		}
		at := s.pos
		name, escaped, err := s.str()
		if err != nil {
			return err
		}
		if n := nameOf(name, escaped); s.twice(base, n, &many) {
			s.pos = at
			return s.fail(fmt.Sprintf("the field %q a second time", n))
		}
		s.space()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return s.fail("expected ':'")
		}
		s.pos++
		s.space()
		start := s.pos
		items, err := s.value()
		if err != nil {
			return err
		}
		if visit != nil {
			if err := visit(name, escaped, s.data[start:s.pos], items); err != nil {
				return err
			}
		}
		s.space()
		if s.pos < len(s.data) && s.data[s.pos] == ',' {
			s.pos++
			continue
		}
		if s.pos < len(s.data) && s.data[s.pos] == '}' {
			s.pos++
			s.depth--
			return nil
		}
		return s.fail("expected ',' or '}'")
	}
}

// twice reports whether the object whose names start at base already has
// a member named n, and records n. A body with a name twice is refused
// (RFC 8259 leaves it to the reader which to take: encoding/json takes the
// last, other readers, a proxy or a validator in front of this server, the
// first, and would see another request than the one stored).
func (s *bodyScanner) twice(base int, n memberName, many *map[string]bool) bool {
	if *many != nil {
		if (*many)[string(n)] {
			return true
		}
		(*many)[string(n)] = true
		return false
	}
	for _, seen := range s.names[base:] {
		if bytes.Equal(seen, n) {
			return true
		}
	}
	s.names = append(s.names, n)
	if len(s.names)-base > smallObject {
		*many = make(map[string]bool, 2*smallObject)
		for _, seen := range s.names[base:] {
			(*many)[string(seen)] = true
		}
	}
	return false
}

func (s *bodyScanner) array() (int, error) {
	if err := s.enter(); err != nil {
		return 0, err
	}
	s.pos++ // '['
	s.space()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		s.depth--
		return 0, nil
	}
	items := 0
	for {
		if _, err := s.value(); err != nil {
			return 0, err
		}
		items++
		s.space()
		if s.pos < len(s.data) && s.data[s.pos] == ',' {
			s.pos++
			continue
		}
		if s.pos < len(s.data) && s.data[s.pos] == ']' {
			s.pos++
			s.depth--
			return items, nil
		}
		return 0, s.fail("expected ',' or ']'")
	}
}

// str scans a string and returns its contents between the quotes. It
// refuses what encoding/json would silently turn into U+FFFD: bytes that
// are not UTF-8, and \u escapes of a surrogate that is not half of a pair.
func (s *bodyScanner) str() ([]byte, bool, error) {
	s.pos++ // '"'
	start, escaped := s.pos, false
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			return s.data[start : s.pos-1], escaped, nil
		case c == '\\':
			escaped = true
			if err := s.escape(); err != nil {
				return nil, false, err
			}
		case c < 0x20:
			return nil, false, s.fail("a control character in a string")
		case c < utf8.RuneSelf:
			s.pos++
		default:
			r, size := utf8.DecodeRune(s.data[s.pos:])
			if r == utf8.RuneError && size <= 1 {
				return nil, false, s.fail("invalid UTF-8 in a string")
			}
			s.pos += size
		}
	}
	return nil, false, s.fail("unterminated string")
}

func (s *bodyScanner) escape() error {
	s.pos++ // '\\'
	if s.pos >= len(s.data) {
		return s.fail("unterminated escape")
	}
	switch s.data[s.pos] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.pos++
		return nil
	case 'u':
	default:
		return s.fail("an unknown escape")
	}
	r, ok := s.hex4()
	if !ok {
		return s.fail("a bad \\u escape")
	}
	switch {
	case r >= 0xDC00 && r <= 0xDFFF:
		return s.fail("a lone low surrogate escape")
	case r >= 0xD800 && r <= 0xDBFF:
		if s.pos+1 >= len(s.data) || s.data[s.pos] != '\\' || s.data[s.pos+1] != 'u' {
			return s.fail("a lone high surrogate escape")
		}
		s.pos++
		low, ok := s.hex4()
		if !ok || low < 0xDC00 || low > 0xDFFF {
			return s.fail("a lone high surrogate escape")
		}
	}
	return nil
}

// hex4 reads the 'u' and four hex digits of a \u escape.
func (s *bodyScanner) hex4() (rune, bool) {
	s.pos++ // 'u'
	if s.pos+4 > len(s.data) {
		return 0, false
	}
	var r rune
	for _, c := range s.data[s.pos : s.pos+4] {
		r <<= 4
		switch {
		case isDigit(c):
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		default:
			return 0, false
		}
	}
	s.pos += 4
	return r, true
}

func (s *bodyScanner) literal(word string) error {
	if len(s.data)-s.pos < len(word) || string(s.data[s.pos:s.pos+len(word)]) != word {
		return s.fail("unexpected character")
	}
	s.pos += len(word)
	return nil
}

// number scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *bodyScanner) number() error {
	if s.data[s.pos] == '-' {
		s.pos++
	}
	switch {
	case s.pos < len(s.data) && s.data[s.pos] == '0':
		s.pos++
	case s.pos < len(s.data) && isDigit(s.data[s.pos]):
		s.digits()
	default:
		return s.fail("a bad number")
	}
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		if !s.digits() {
			return s.fail("a bad number")
		}
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		if !s.digits() {
			return s.fail("a bad number")
		}
	}
	return nil
}

func (s *bodyScanner) digits() bool {
	start := s.pos
	for s.pos < len(s.data) && isDigit(s.data[s.pos]) {
		s.pos++
	}
	return s.pos > start
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
