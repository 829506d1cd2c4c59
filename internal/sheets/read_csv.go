package sheets

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/dealctl/dealctl/internal/csvsafe"
)

func readCSVFile(path string, o ReadOptions) (*Sheet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ReadCSVWith(filepath.Base(path), data, o)
}

// ReadCSV reads delimited text with the default options.
func ReadCSV(name string, data []byte) (*Sheet, error) {
	return ReadCSVWith(name, data, ReadOptions{})
}

// ReadCSVWith reads delimited text: UTF-8 with or without a byte-order
// mark (Excel's "CSV UTF-8" writes one), UTF-16 (Excel's "Unicode text"),
// Windows-1252 (LibreOffice's and Excel's plain "CSV") or what
// o.Encoding names; the delimiter is whichever of , ; tab | splits the
// rows most consistently, since Excel in many European locales writes ";".
func ReadCSVWith(name string, data []byte, o ReadOptions) (*Sheet, error) {
	data, note, err := decodeText(name, data, o.Encoding)
	if err != nil {
		return nil, err
	}
	delim := sniffDelimiter(data)
	grid, err := readDelimited(data, delim, -1)
	var me *MalformedError
	if errors.As(err, &me) {
		me.File = name
		return nil, me
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	restoreGuardedCells(grid)
	// Serial-number due dates in a csv come from a 1900-system workbook:
	// the 1904 system survives only inside xlsx files.
	s, err := parseGrid(name, "", grid, gridLayout{}, o, false)
	if s != nil && note != "" {
		s.Notes = append([]string{note}, s.Notes...)
	}
	return s, err
}

// restoreGuardedCells drops the apostrophe that WriteCSV (and other
// careful writers) put in front of a cell a spreadsheet would run as a
// formula, so "'=1+1" reads as the text "=1+1" it stands for.
func restoreGuardedCells(grid [][]string) {
	for _, rec := range grid {
		for i, c := range rec {
			rec[i] = csvsafe.Restore(c)
		}
	}
}

// readDelimited parses up to limit records (all when negative), leniently:
// rows may differ in length, and stray quotes inside fields are kept (a
// hand-made csv has `5" drive` or `the "Target"` unquoted). A cell whose
// opening quote is never closed is the one thing not forgiven: the
// lenient reader would take every line after it into that cell, losing
// rows without a word, so it is a *MalformedError.
func readDelimited(data []byte, delim rune, limit int) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = delim
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	var grid [][]string
	var line, col int // where the last record's last field starts
	for limit < 0 || len(grid) < limit {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			if len(grid) > 0 && unterminatedAt(data, line, col) {
				last := grid[len(grid)-1]
				return grid, &MalformedError{Line: line, Reason: unterminatedReason(last[len(last)-1])}
			}
			break
		}
		if err != nil {
			return grid, err
		}
		grid = append(grid, rec)
		line, col = r.FieldPos(len(rec) - 1)
	}
	return grid, nil
}

// MalformedError is a text file that cannot be read as rows without
// guessing: Line is where the trouble starts (1-based).
type MalformedError struct {
	File   string
	Line   int
	Reason string
}

func (e *MalformedError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
	}
	return fmt.Sprintf("%s: line %d: %s", e.File, e.Line, e.Reason)
}

func unterminatedReason(cell string) string {
	start, _, _ := strings.Cut(cell, "\n")
	if len([]rune(start)) > 30 {
		start = string([]rune(start)[:30]) + "…"
	}
	return fmt.Sprintf("unterminated quote: the cell starting %q opens a quote that is never closed, so every line after it "+
		"would be read into that one cell; close the quote (a quote inside a cell is written \"\")", start)
}

// unterminatedAt reports whether the field at line, col (as
// csv.Reader.FieldPos gives them) of the file's last record opened a quote
// the lenient reader ran to the end of the file looking for the close. A
// quoted field ends at a quote followed by the delimiter, a line end or
// the end of the file, and "" inside it is one quote; so the last field,
// running to the end, was closed exactly when what follows its opening
// quote ends (line ends aside) in an odd run of quotes.
func unterminatedAt(data []byte, line, col int) bool {
	off := lineOffset(data, line) + col - 1
	if off < 0 || off >= len(data) || data[off] != '"' {
		return false
	}
	rest := bytes.TrimRight(data[off+1:], "\r\n")
	run := len(rest) - len(bytes.TrimRight(rest, `"`))
	return run%2 == 0
}

// lineOffset is the byte offset at which line (1-based) starts.
func lineOffset(data []byte, line int) int {
	off := 0
	for ; line > 1; line-- {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return len(data)
		}
		off += i + 1
	}
	return off
}

var delimiters = []rune{',', ';', '\t', '|'}

// sniffDelimiter scores each candidate by how many of the first rows share
// the most common field count, times that count.
func sniffDelimiter(data []byte) rune {
	best, bestScore := ',', 0
	for _, d := range delimiters {
		grid, _ := readDelimited(data, d, 50)
		counts := map[int]int{}
		for _, rec := range grid {
			if len(rec) > 1 {
				counts[len(rec)]++
			}
		}
		for fields, rows := range counts {
			if score := fields * rows; score > bestScore {
				best, bestScore = d, score
			}
		}
	}
	return best
}
