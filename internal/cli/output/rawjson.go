package output

import (
	"bytes"
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
	return CopyRawJSON(w, bytes.NewReader(data))
}

// CopyRawJSON is WriteRawJSON reading from r a chunk at a time, so that a
// list of megabytes is laid out without holding it, or its layout, in
// memory. Output is written 64 KiB at a time as it is laid out: JSON
// refused part-way may leave what came before the fault written to w
// (write to a file first where that matters, as `requests ls` does).
func CopyRawJSON(w io.Writer, r io.Reader) error {
	return copyRawJSON(w, r, 64<<10)
}

// minChunk is the least chunk size copyRawJSON works with: room for the
// longest sequence feed may hand back (a cut \uXXXX) and one byte more.
const minChunk = 7

func copyRawJSON(w io.Writer, r io.Reader, chunkSize int) error {
	ri := reindenter{w: w, expectValue: true, out: make([]byte, 0, max(chunkSize, 4096)+outSlack)}
	buf := make([]byte, max(chunkSize, minChunk))
	carry := 0 // unprocessed bytes kept at the front of buf
	for {
		n, final, rerr := fill(r, buf[carry:])
		if rerr != nil {
			return rerr
		}
		chunk := buf[:carry+n]
		used, err := ri.feed(chunk, final)
		if err != nil {
			return err
		}
		if final {
			if !ri.finished {
				return errNotJSON
			}
			return ri.flush()
		}
		// What feed could not yet decide on (the start of an escape
		// sequence cut by the chunk's end) is read again with the next.
		carry = copy(buf, chunk[used:])
	}
}

// fill reads into buf until it is full or r is done (final). Only io.EOF
// ends the input: any other error, io.ErrUnexpectedEOF from a cut
// connection included, is returned.
func fill(r io.Reader, buf []byte) (n int, final bool, err error) {
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err == io.EOF {
			return n, true, nil
		}
		if err != nil {
			return n, false, err
		}
	}
	return n, false, nil
}

var errNotJSON = errors.New("the server's answer is not well-formed JSON")
