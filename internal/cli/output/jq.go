package output

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/itchyny/gojq"

	"github.com/dealctl/dealctl/internal/termsafe"
)

// CompileJQ parses and compiles expr, so that a mistake in it (a syntax
// error, an unknown function) is found before a command changes anything.
func CompileJQ(expr string) (*gojq.Code, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, err
	}
	return gojq.Compile(q)
}

// JQError is a --jq expression that compiled but failed on the command's
// JSON (adding a string to a number, indexing an array by a name): the
// user's mistake, as an expression that does not compile is (exit 2),
// found only once the command has run.
type JQError struct {
	Expr string
	Err  error
	// Written, when the command made a write, is its output (what --json
	// prints: the new or changed object, its number and id), which the
	// error carries (params.written) so that what was written is known
	// and the command is not run again to see.
	Written any
}

func (e *JQError) Error() string {
	if e.Written != nil {
		return fmt.Sprintf("--jq %q: %v: the command ran and its write was made: do not run it again; params.written is its output, the JSON --jq read: try the expression on that", e.Expr, e.Err)
	}
	return fmt.Sprintf("--jq %q: %v: the command ran, and its output did not fit the expression; --json shows the JSON --jq reads", e.Expr, e.Err)
}

func (e *JQError) Unwrap() error { return e.Err }

// runJQ evaluates expr over v's JSON form. Strings print raw and other
// values as compact JSON, one result a line, as `jq -r` users expect. A
// raw string is server text: on a terminal (tty) it is made safe, piped it
// is left exact for the program reading it.
func runJQ(w io.Writer, expr string, v any, tty bool) error {
	q, err := CompileJQ(expr)
	if err != nil {
		return fmt.Errorf("--jq %q: %w", expr, err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var in any
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	iter := q.Run(in)
	for {
		r, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, ok := r.(error); ok {
			if h, ok := err.(*gojq.HaltError); ok && h.Value() == nil {
				return nil
			}
			return &JQError{Expr: expr, Err: err}
		}
		if s, ok := r.(string); ok {
			if tty {
				s = termsafe.Text(s)
			}
			fmt.Fprintln(w, s)
			continue
		}
		b, err := gojq.Marshal(r)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, string(b))
	}
}
