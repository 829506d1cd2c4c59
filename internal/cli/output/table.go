package output

import (
	"bytes"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// Column describes one column of a Table.
type Column struct {
	Header string
	// PipeOnly columns (ids, full timestamps) are left out of the terminal
	// table, where they are noise, but kept for scripts.
	PipeOnly bool
	// TTYOnly columns (bars, relative times) exist only for people.
	TTYOnly bool
	// Max truncates the cell on a terminal (0: never). Pipes get it whole.
	Max int
	// Flex marks the column that takes the width the others leave on a
	// terminal, cut with "…" to fit (a title); one a table.
	Flex bool
	// Words shows an API value as words on a terminal (human_resources
	// as "human resources"); piped, the value stays as the API spells it.
	Words bool
	// Drop orders the columns a narrow terminal leaves out, highest
	// first, before the Flex column gets narrower than it can be read;
	// 0 is never dropped.
	Drop int
	// Color styles a cell on a terminal, by its text (e.g. a status) and,
	// when needed, the rest of its row (the whole row, every column).
	Color func(t *display.Theme, cell string, row []string) string
}

// Table is rows of cells under columns. Every row has one cell a column.
type Table struct {
	Columns []Column
	Rows    [][]string
	// TTYOrder is the order of the columns on a terminal, by index into
	// Columns, where it differs from the piped order (which scripts rely
	// on and never changes): a title reads best next to its number.
	TTYOrder []int
}

// AddRow appends a row.
func (t *Table) AddRow(cells ...string) { t.Rows = append(t.Rows, cells) }

func (t *Table) ttyColumns() []int {
	order := t.TTYOrder
	if order == nil {
		for i := range t.Columns {
			order = append(order, i)
		}
	}
	var idx []int
	for _, i := range order {
		if !t.Columns[i].PipeOnly {
			idx = append(idx, i)
		}
	}
	return idx
}

func (t *Table) plainColumns() []int {
	var idx []int
	for i, c := range t.Columns {
		if !c.TTYOnly {
			idx = append(idx, i)
		}
	}
	return idx
}

func (t *Table) headers(cols []int) []string {
	h := make([]string, len(cols))
	for i, c := range cols {
		h[i] = t.Columns[c].Header
	}
	return h
}

func pick(row []string, cols []int) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		if c < len(row) {
			out[i] = row[c]
		}
	}
	return out
}

// writePlain is the piped form: no header, tab-separated, untruncated,
// one line a row, so `cut -f` and `while read` keep working across
// releases. It is for people too (`dealctl requests ls | grep tax` ends
// on a terminal), so every cell is shown as the terminal table shows it
// (termsafe.Line: no escape sequence, tab or newline passes); -o tsv,
// csv and json are the exact forms for programs.
func (t *Table) writePlain(w io.Writer) error {
	cols := t.plainColumns()
	var b bytes.Buffer
	for _, r := range t.Rows {
		for i, c := range cols {
			if i > 0 {
				b.WriteByte('\t')
			}
			if c < len(r) {
				b.WriteString(termsafe.Line(r[c]))
			}
		}
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Render writes the terminal form, for views that combine tables, fitted
// to width columns (0: not fitted).
func (t *Table) Render(w io.Writer, th *display.Theme, width int) error {
	return t.render(w, th, width)
}

// render is the terminal form: a header row and aligned, coloured cells,
// fitted to width (see table_fit.go).
func (t *Table) render(w io.Writer, theme *display.Theme, width int) error {
	all := t.ttyColumns()
	shown := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		cells := pick(r, all)
		for j, c := range all {
			cells[j] = termsafe.Line(cells[j])
			if t.Columns[c].Words {
				cells[j] = strings.ReplaceAll(cells[j], "_", " ")
			}
			if max := t.Columns[c].Max; max > 0 {
				cells[j] = truncate(cells[j], max)
			}
		}
		shown[i] = cells
	}
	plan := t.fit(all, shown, width)
	pos := make(map[int]int, len(all))
	for j, c := range all {
		pos[c] = j
	}
	cols := plan.cols
	var buf bytes.Buffer
	tbl := tablewriter.NewTable(&buf,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleNone),
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: tw.Off},
			},
		})),
		tablewriter.WithConfig(tablewriter.Config{
			Header: tw.CellConfig{
				Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapNone},
				Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
				Padding:    tw.CellPadding{Global: tw.Padding{Left: "", Right: "  ", Overwrite: true}},
			},
			Row: tw.CellConfig{
				Formatting: tw.CellFormatting{AutoWrap: tw.WrapNone},
				Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
				Padding:    tw.CellPadding{Global: tw.Padding{Left: "", Right: "  ", Overwrite: true}},
			},
		}),
	)
	hdr := t.headers(cols)
	for i := range hdr {
		hdr[i] = theme.Bold(hdr[i])
	}
	tbl.Header(hdr)
	for i, r := range t.Rows {
		cells := make([]string, len(cols))
		for j, c := range cols {
			col := t.Columns[c]
			cells[j] = shown[i][pos[c]]
			if col.Flex && plan.flexW > 0 {
				cells[j] = cutTo(cells[j], plan.flexW)
			}
			if col.Color != nil {
				cells[j] = col.Color(theme, cells[j], r)
			}
		}
		if err := tbl.Append(cells); err != nil {
			return err
		}
	}
	if err := tbl.Render(); err != nil {
		return err
	}
	// Padding leaves trailing blanks on every line; they only get in the
	// way of copying and of golden files.
	var out bytes.Buffer
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		out.WriteString(strings.TrimRight(line, " \n"))
		if strings.HasSuffix(line, "\n") {
			out.WriteByte('\n')
		}
	}
	_, err := w.Write(out.Bytes())
	return err
}

// safeCells is t with every cell made safe for a terminal, for -o csv and
// -o tsv printed on one: newlines stay in a csv cell, which quotes them.
func (t *Table) safeCells() *Table {
	out := &Table{Columns: t.Columns, Rows: make([][]string, len(t.Rows))}
	for i, r := range t.Rows {
		out.Rows[i] = make([]string, len(r))
		for j, c := range r {
			out.Rows[i][j] = termsafe.Text(c)
		}
	}
	return out
}

// truncate shortens s to max runes with an ellipsis.
func truncate(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	if max <= 1 {
		return string(r[:max])
	}
	return strings.TrimRight(string(r[:max-1]), " ") + "…"
}
