package exporters

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/text/encoding/unicode"
)

func readCSVFile(path string) (*Sheet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ReadCSV(filepath.Base(path), data)
}

// ReadCSV reads delimited text: UTF-8 with or without a byte-order mark
// (Excel's "CSV UTF-8" writes one), or UTF-16 with one (Excel's "Unicode
// text"); the delimiter is whichever of , ; tab | splits the rows most
// consistently, since Excel in many European locales writes ";".
func ReadCSV(name string, data []byte) (*Sheet, error) {
	data, err := decodeText(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	delim := sniffDelimiter(data)
	grid, err := readDelimited(data, delim, -1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// Serial-number due dates in a csv come from a 1900-system workbook:
	// the 1904 system survives only inside xlsx files.
	return parseGrid(name, "", grid, false)
}

func decodeText(data []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return data[3:], nil
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		dec := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()
		out, err := dec.Bytes(data)
		if err != nil {
			return nil, fmt.Errorf("not readable as UTF-16 text: %w", err)
		}
		return out, nil
	}
	return data, nil
}

// readDelimited parses up to limit records (all when negative), leniently:
// rows may differ in length, and stray quotes inside fields are kept.
func readDelimited(data []byte, delim rune, limit int) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = delim
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	var grid [][]string
	for limit < 0 || len(grid) < limit {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return grid, err
		}
		grid = append(grid, rec)
	}
	return grid, nil
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
