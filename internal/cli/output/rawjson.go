package output

import (
	"errors"
	"io"
)

// WriteRawJSON prints JSON as the server sent it, laid out exactly as
// WriteJSON lays out a decoded value (two-space indent, no HTML escaping,
// a final newline), without decoding it: `requests ls -o json` on a list
// of thousands of rows spends most of its time in json.Unmarshal and
// Marshal otherwise. For a body the API's own types encode, the output is
// byte-for-byte what WriteJSON prints after decoding it; fields a server
// adds beyond the API's types are kept rather than dropped.
//
// The pass checks the structure (brackets, strings, commas and colons in
// place) and refuses anything else, but does not parse numbers and
// literals: a server that sends `tru` gets it printed.
func WriteRawJSON(w io.Writer, data []byte) error {
	out, err := reindent(data)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

var errNotJSON = errors.New("the server's answer is not well-formed JSON")

// reindent is a single pass over data: whitespace outside strings is
// dropped and put back as json.Indent(…, "", "  ") would; inside strings
// the HTML escapes encoding/json writes by default (\u003c, \u003e,
// \u0026) become the characters again, and U+2028 and U+2029 are escaped,
// as an Encoder with SetEscapeHTML(false) does.
func reindent(data []byte) ([]byte, error) {
	out := make([]byte, 0, len(data)+len(data)/4)
	var stack []byte // open brackets
	depth := func() int { return len(stack) }
	newline := func() {
		out = append(out, '\n')
		for range depth() {
			out = append(out, ' ', ' ')
		}
	}
	expectValue := true // a value may start here
	i := 0
	for i < len(data) {
		c := data[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			i++
		case '{', '[':
			if !expectValue {
				return nil, errNotJSON
			}
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			// An empty object or array stays on one line.
			j := skipSpace(data, i+1)
			if j < len(data) && data[j] == closer {
				out = append(out, c, closer)
				i = j + 1
				expectValue = false
				break
			}
			out = append(out, c)
			stack = append(stack, c)
			newline()
			i++
			expectValue = true
		case '}', ']':
			open := byte('{')
			if c == ']' {
				open = '['
			}
			if depth() == 0 || stack[depth()-1] != open || expectValue {
				return nil, errNotJSON
			}
			stack = stack[:depth()-1]
			newline()
			out = append(out, c)
			i++
		case ',':
			if depth() == 0 || expectValue {
				return nil, errNotJSON
			}
			out = append(out, ',')
			newline()
			i++
			expectValue = true
		case ':':
			if depth() == 0 || stack[depth()-1] != '{' || expectValue {
				return nil, errNotJSON
			}
			out = append(out, ':', ' ')
			i++
			expectValue = true
		case '"':
			if !expectValue {
				return nil, errNotJSON
			}
			end, s, err := appendString(out, data, i)
			if err != nil {
				return nil, err
			}
			out, i = s, end
			expectValue = false
		default:
			// A number or a literal: copied as it is, up to a delimiter.
			if !expectValue {
				return nil, errNotJSON
			}
			j := i
			for j < len(data) && !isDelim(data[j]) {
				j++
			}
			out = append(out, data[i:j]...)
			i = j
			expectValue = false
		}
		if depth() == 0 && !expectValue {
			// The top-level value is done: only whitespace may follow.
			if skipSpace(data, i) != len(data) {
				return nil, errNotJSON
			}
			return append(out, '\n'), nil
		}
	}
	return nil, errNotJSON
}

func isDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', '[', ']', '{', '}', '"':
		return true
	}
	return false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// appendString copies the string starting at data[i] (a quote) to out and
// returns the index after its closing quote.
func appendString(out, data []byte, i int) (int, []byte, error) {
	out = append(out, '"')
	i++
	for {
		// Copy the run of plain bytes in one go.
		j := i
		for j < len(data) && data[j] != '"' && data[j] != '\\' && data[j] != 0xE2 {
			if data[j] < 0x20 {
				return 0, nil, errNotJSON
			}
			j++
		}
		out = append(out, data[i:j]...)
		if j >= len(data) {
			return 0, nil, errNotJSON
		}
		switch data[j] {
		case '"':
			return j + 1, append(out, '"'), nil
		case 0xE2: // U+2028 and U+2029 are E2 80 A8 and E2 80 A9
			if j+2 < len(data) && data[j+1] == 0x80 && (data[j+2] == 0xA8 || data[j+2] == 0xA9) {
				out = append(out, `\u202`...)
				out = append(out, "89"[data[j+2]-0xA8])
				i = j + 3
				continue
			}
			out = append(out, data[j])
			i = j + 1
		case '\\':
			if j+1 >= len(data) {
				return 0, nil, errNotJSON
			}
			if data[j+1] == 'u' && j+6 <= len(data) {
				if r, ok := htmlEscape(data[j+2 : j+6]); ok {
					out = append(out, r)
					i = j + 6
					continue
				}
			}
			// Any other escape, \\ and \" included, is kept as it is.
			out = append(out, data[j], data[j+1])
			i = j + 2
		}
	}
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
