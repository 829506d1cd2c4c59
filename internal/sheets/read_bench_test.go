package sheets

import (
	"path/filepath"
	"testing"
)

// BenchmarkReadUSTracker reads the 600-row tracker: decode, delimiter,
// header, the date column's order, every row, sections.
func BenchmarkReadUSTracker(b *testing.B) {
	path := filepath.Join(templates, "us-vdr-tracker.csv")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadFile(path, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadMergedXLSX reads a workbook with merges and hidden rows
// and columns, the layout an xlsx adds to the cells.
func BenchmarkReadMergedXLSX(b *testing.B) {
	path := filepath.Join(templates, "merged-headings.xlsx")
	for b.Loop() {
		if _, err := ReadFile(path, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
