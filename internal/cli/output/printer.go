// Package output renders a command's result in the format asked for:
// aligned, coloured tables for a terminal; stable, headerless
// tab-separated columns for a pipe; or json, yaml, csv, tsv, or a --jq
// expression over the JSON.
package output

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dealctl/dealctl/internal/csvsafe"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/iostreams"
	"go.yaml.in/yaml/v3"
)

// Formats accepted by -o.
const (
	FormatTable = "table"
	FormatJSON  = "json"
	FormatYAML  = "yaml"
	FormatCSV   = "csv"
	FormatTSV   = "tsv"
)

// Formats lists the -o values, for validation and completion.
var Formats = []string{FormatTable, FormatJSON, FormatYAML, FormatCSV, FormatTSV}

// Printer writes views to a command's stdout.
type Printer struct {
	IO     *iostreams.IOStreams
	Format string // one of Formats; "" means table
	JQ     string // a jq expression; implies JSON input
	Theme  *display.Theme
	// Wrote, when set, reports whether the command has made a write: a
	// --jq that fails on the output of one keeps that output in its
	// error (JQError.Written), so that the user learns what was written
	// and does not run the command again to see.
	Wrote func() bool
}

// View is one result: Data is what json, yaml and --jq see (the API's own
// shapes); Table is its rows for the tabular formats; Human, when set,
// replaces Table for the default format (a detail view, a conversation).
type View struct {
	Data  any
	Table *Table
	Human func(w io.Writer) error
}

// NeedsTable reports whether the format prints rows, which only a view
// with a Table has: commands check it before they change anything, so a
// write is never followed by "format not available" and re-run twice.
func (p *Printer) NeedsTable() bool {
	return p.JQ == "" && (p.Format == FormatCSV || p.Format == FormatTSV)
}

// FormatError is a format asked of a view that cannot be printed in it.
type FormatError struct{ Format string }

func (e *FormatError) Error() string {
	return fmt.Sprintf("-o %s is not available here; use -o json or -o yaml", e.Format)
}

// Machine reports whether the output is for a program (json, yaml, jq),
// so commands can skip human-only lines.
func (p *Printer) Machine() bool {
	return p.JQ != "" || p.Format == FormatJSON || p.Format == FormatYAML
}

// Print renders v.
func (p *Printer) Print(v View) error {
	w := p.IO.Out
	tty := p.IO.IsStdoutTTY()
	switch {
	case p.JQ != "":
		err := runJQ(w, p.JQ, v.Data, tty)
		var jqe *JQError
		if errors.As(err, &jqe) && p.Wrote != nil && p.Wrote() {
			jqe.Written = v.Data
		}
		return err
	case p.Format == FormatJSON:
		return display.WriteJSON(w, v.Data)
	case p.Format == FormatYAML:
		return writeYAML(w, v.Data)
	case p.Format == FormatCSV, p.Format == FormatTSV:
		if v.Table == nil {
			return &FormatError{Format: p.Format}
		}
		t := v.Table
		if tty {
			t = t.safeCells()
		}
		return writeDelimited(w, t, p.Format == FormatTSV)
	}
	if v.Human != nil {
		// A human view is for people wherever it goes (a pager, a file
		// read later with cat), so it is made safe piped or not.
		var buf bytes.Buffer
		err := v.Human(&buf)
		if _, werr := io.WriteString(w, TerminalSafe(buf.String(), p.IO.ColorEnabled())); err == nil {
			err = werr
		}
		return err
	}
	if v.Table == nil {
		return display.WriteJSON(w, v.Data)
	}
	if p.IO.IsStdoutTTY() {
		return v.Table.render(w, p.Theme, p.IO.TerminalWidth())
	}
	return v.Table.writePlain(w)
}

// writeYAML goes through JSON so field names and omissions are the API's,
// and through a yaml.Node so fields keep their order.
func writeYAML(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return err
	}
	blockStyle(&n)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return err
	}
	return enc.Close()
}

// blockStyle undoes the flow and quoting styles that parsing JSON leaves on
// every node; the encoder quotes again only where YAML needs it.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// writeDelimited writes every column (pipe columns included) with a header
// row: csv per RFC 4180, tsv with tabs and newlines in cells flattened.
// Both are files people open in a spreadsheet, so a cell that would run
// as a formula there (text from the other side starting with "=") is
// written behind an apostrophe (csvsafe).
func writeDelimited(w io.Writer, t *Table, tabs bool) error {
	cols := t.plainColumns()
	if tabs {
		var b bytes.Buffer
		row := func(cells []string) {
			for i, c := range cells {
				if i > 0 {
					b.WriteByte('\t')
				}
				b.WriteString(csvsafe.Neutralize(flatten(c)))
			}
			b.WriteByte('\n')
		}
		row(t.headers(cols))
		for _, r := range t.Rows {
			row(pick(r, cols))
		}
		_, err := w.Write(b.Bytes())
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(csvsafe.Record(t.headers(cols))); err != nil {
		return err
	}
	for _, r := range t.Rows {
		if err := cw.Write(csvsafe.Record(pick(r, cols))); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

var flattener = strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ")

func flatten(s string) string { return flattener.Replace(s) }
