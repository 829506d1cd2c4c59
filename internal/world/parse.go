package world

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Problem is one thing wrong with a world file. Path names the place in
// the file the way a person would point at it: deals[0].requests[3].due_date.
type Problem struct {
	Path string
	Msg  string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Msg
	}
	return p.Path + ": " + p.Msg
}

// InvalidError lists every problem Validate found, so that one run shows
// all of them rather than one per attempt.
type InvalidError struct {
	Problems []Problem
}

func (e *InvalidError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// SyntaxError is a file that is not YAML or JSON of the world shape
// (including a field the format does not know).
type SyntaxError struct {
	Format string // "YAML" or "JSON"
	Err    error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("not a valid %s world file: %v", e.Format, e.Err)
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// Parse decodes a world file, YAML or JSON, rejecting unknown fields, and
// validates it. The error is a *SyntaxError or an *InvalidError.
func Parse(data []byte) (*World, error) {
	w, err := decode(data)
	if err != nil {
		return nil, err
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	return w, nil
}

// decode reads JSON when the document starts like JSON, else YAML. JSON
// gets its own decoder because YAML parsers stumble on some valid JSON
// (tabs used as indentation).
func decode(data []byte) (*World, error) {
	var w World
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&w); err != nil {
			return nil, &SyntaxError{Format: "JSON", Err: tidyDecodeError(err)}
		}
		if dec.More() {
			return nil, &SyntaxError{Format: "JSON", Err: errors.New("more than one JSON value")}
		}
		return &w, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&w); err != nil && !errors.Is(err, io.EOF) {
		return nil, &SyntaxError{Format: "YAML", Err: tidyDecodeError(err)}
	}
	return &w, nil
}

// tidyDecodeError drops the Go type names decoders put in their messages
// ("in type world.Request"), which mean nothing to a person editing YAML.
func tidyDecodeError(err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	for _, t := range []string{"world.World", "world.Organization", "world.User", "world.Deal", "world.Party", "world.Person",
		"world.Request", "world.Message", "world.Link", "world.File", "world.Key"} {
		msg = strings.ReplaceAll(msg, " in type "+t, "")
		msg = strings.ReplaceAll(msg, " of type "+t, "")
		msg = strings.ReplaceAll(msg, "into "+t, "into "+strings.ToLower(strings.TrimPrefix(t, "world.")))
	}
	return errors.New(msg)
}
