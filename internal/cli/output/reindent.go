package output

import (
	"encoding/binary"
	"io"
	"strings"
)

// outSlack is room past the flush threshold for the largest single append
// between two checks (a newline and its indent, an escape).
const outSlack = 1024

// reindenter lays JSON out as json.Indent(…, "", "  ") would, one chunk at
// a time: whitespace outside strings is dropped and put back; inside
// strings the HTML escapes encoding/json writes by default (\u003c,
// \u003e, \u0026) become the characters again, and U+2028 and U+2029 are
// escaped, as an Encoder with SetEscapeHTML(false) does.
//
// It is one loop over the bytes with its state in fields, because a list
// of thousands of rows is mostly short tokens: a call per token costs more
// than the token.
type reindenter struct {
	w           io.Writer
	out         []byte // laid out, not yet written to w
	stack       []byte // open brackets
	expectValue bool   // a value may start here
	inString    bool   // inside a string, after its opening quote
	inLiteral   bool   // inside a number or a literal such as true
	pendingOpen byte   // after '{' or '[': its closer, until the next token says empty or not
	finished    bool   // the top-level value is complete

	// In an object, keys and values alternate: wantKey after '{' and ','
	// (the next string is a key), inKey inside it, afterKey until ':'.
	wantKey, inKey, afterKey bool
}

func (ri *reindenter) flush() error {
	_, err := ri.w.Write(ri.out)
	ri.out = ri.out[:0]
	return err
}

// indent is a newline and the spaces of the deepest indent printed
// without a second append; deeper ones append more.
var indent = "\n" + strings.Repeat(" ", 64)

// feed processes data and returns how much of it was used; final says no
// more follows. A chunk is used whole except for the start of an escape
// sequence that it cuts (at most 5 bytes), which feed wants again with
// more after it.
func (ri *reindenter) feed(data []byte, final bool) (int, error) {
	used, out, err := ri.appendLaidOut(ri.out, data, final)
	ri.out = out
	return used, err
}

// appendNewline appends a newline and the indent of depth open brackets.
func appendNewline(out []byte, depth int) []byte {
	n := 2 * depth
	out = append(out, indent[:1+min(n, len(indent)-1)]...)
	for n -= len(indent) - 1; n > 0; n-- {
		out = append(out, ' ')
	}
	return out
}

// valueEnded notes that a value is complete.
func (ri *reindenter) valueEnded(out []byte) []byte {
	ri.expectValue = false
	if len(ri.stack) == 0 && ri.pendingOpen == 0 {
		ri.finished = true
		out = append(out, '\n')
	}
	return out
}

// appendLaidOut is feed, with the output slice passed along rather than
// kept in ri, so that the compiler can hold it in registers.
func (ri *reindenter) appendLaidOut(out, data []byte, final bool) (int, []byte, error) {
	i := 0
	for i < len(data) {
		if len(out) >= cap(out)-outSlack {
			if _, err := ri.w.Write(out); err != nil {
				return i, out, err
			}
			out = out[:0]
		}
		if ri.inString {
			// Copy the run of plain bytes in one go.
			j := i
			for j+8 <= len(data) && !hasStringStop(binary.LittleEndian.Uint64(data[j:])) {
				j += 8
			}
			for j < len(data) && !stringStop[data[j]] {
				j++
			}
			out = append(out, data[i:j]...)
			i = j
			if j >= len(data) {
				break
			}
			switch c := data[j]; {
			case c == '"':
				out = append(out, '"')
				ri.inString = false
				if ri.inKey {
					ri.inKey, ri.afterKey, ri.expectValue = false, true, false
				} else {
					out = ri.valueEnded(out)
				}
				i++
			case c < 0x20:
				return i, out, errNotJSON
			case c == 0xE2: // U+2028 and U+2029 are E2 80 A8 and E2 80 A9
				if j+2 >= len(data) && !final {
					return i, out, nil
				}
				if j+2 < len(data) && data[j+1] == 0x80 && (data[j+2] == 0xA8 || data[j+2] == 0xA9) {
					out = append(out, `\u202`...)
					out = append(out, "89"[data[j+2]-0xA8])
					i += 3
					continue
				}
				out = append(out, c)
				i++
			default: // a backslash
				if j+6 > len(data) && !final {
					return i, out, nil
				}
				if j+1 >= len(data) {
					return i, out, errNotJSON
				}
				if data[j+1] == 'u' && j+6 <= len(data) {
					if r, ok := htmlEscape(data[j+2 : j+6]); ok {
						out = append(out, r)
						i += 6
						continue
					}
				}
				// Any other escape, \\ and \" included, is kept as it is.
				out = append(out, data[j:j+2]...)
				i += 2
			}
			continue
		}
		if ri.inLiteral {
			j := i
			for j < len(data) && !isDelim(data[j]) {
				j++
			}
			out = append(out, data[i:j]...)
			i = j
			if j < len(data) {
				ri.inLiteral = false
				out = ri.valueEnded(out)
			}
			continue
		}

		c := data[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		if ri.finished {
			return i, out, errNotJSON // only whitespace may follow the top-level value
		}
		if ri.pendingOpen != 0 {
			// An empty object or array stays on one line.
			closer := ri.pendingOpen
			ri.pendingOpen = 0
			if c == closer {
				out = append(out, c)
				ri.wantKey = false
				out = ri.valueEnded(out)
				i++
				continue
			}
			ri.stack = append(ri.stack, opener(closer))
			out = appendNewline(out, len(ri.stack))
		}
		switch c {
		case '{', '[':
			if !ri.expectValue || ri.wantKey {
				return i, out, errNotJSON
			}
			out = append(out, c)
			ri.pendingOpen = closerOf(c)
			ri.expectValue = true
			ri.wantKey = c == '{'
		case '}', ']':
			depth := len(ri.stack)
			if depth == 0 || ri.stack[depth-1] != opener(c) || ri.expectValue || ri.afterKey {
				return i, out, errNotJSON
			}
			ri.stack = ri.stack[:depth-1]
			out = appendNewline(out, len(ri.stack))
			out = append(out, c)
			out = ri.valueEnded(out)
		case ',':
			if len(ri.stack) == 0 || ri.expectValue || ri.afterKey {
				return i, out, errNotJSON
			}
			out = append(out, ',')
			out = appendNewline(out, len(ri.stack))
			ri.expectValue = true
			ri.wantKey = ri.stack[len(ri.stack)-1] == '{'
		case ':':
			if !ri.afterKey {
				return i, out, errNotJSON
			}
			out = append(out, ':', ' ')
			ri.afterKey, ri.expectValue = false, true
		case '"':
			if !ri.expectValue {
				return i, out, errNotJSON
			}
			out = append(out, '"')
			ri.inString = true
			ri.inKey, ri.wantKey = ri.wantKey, false
		default:
			// A number or a literal: copied as it is, up to a delimiter.
			if !ri.expectValue || ri.wantKey {
				return i, out, errNotJSON
			}
			ri.inLiteral = true
			continue
		}
		i++
	}
	if final && ri.inLiteral {
		ri.inLiteral = false
		out = ri.valueEnded(out)
	}
	return i, out, nil
}

// hasStringStop reports whether any of the eight bytes in v is a
// stringStop byte, eight at a time: most string content has none. (The
// bit tricks are the classic "has a zero byte" and "has a byte less than
// n" tests; neither gives false negatives.)
func hasStringStop(v uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash, e2 := v^('"'*ones), v^('\\'*ones), v^(0xE2*ones)
	return ((v-0x20*ones)&^v|(quote-ones)&^quote|(backslash-ones)&^backslash|(e2-ones)&^e2)&highs != 0
}

// stringStop marks the bytes that end a run of plain string content: the
// closing quote, an escape, a control character (not allowed), and the
// first byte of U+2028 and U+2029.
var stringStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'], t[0xE2] = true, true, true
	return t
}()

func isDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', '[', ']', '{', '}', '"':
		return true
	}
	return false
}

func closerOf(open byte) byte {
	if open == '[' {
		return ']'
	}
	return '}'
}

func opener(closer byte) byte {
	if closer == ']' {
		return '['
	}
	return '{'
}

// htmlEscape reports which of <, > and & the four hex digits name.
func htmlEscape(hex []byte) (byte, bool) {
	if hex[0] != '0' || hex[1] != '0' {
		return 0, false
	}
	switch {
	case hex[2] == '3' && (hex[3] == 'c' || hex[3] == 'C'):
		return '<', true
	case hex[2] == '3' && (hex[3] == 'e' || hex[3] == 'E'):
		return '>', true
	case hex[2] == '2' && hex[3] == '6':
		return '&', true
	}
	return 0, false
}
