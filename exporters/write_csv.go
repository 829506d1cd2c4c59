package exporters

import (
	"bufio"
	"encoding/csv"
	"io"

	"github.com/dealctl/dealctl/internal/csvsafe"
)

// WriteCSV writes the list as RFC 4180 csv in UTF-8 (CRLF line ends, as
// the RFC says). bom prepends a byte-order mark, without which Excel reads
// UTF-8 as the local code page and mangles accents. Cells that a
// spreadsheet would run as a formula (a counterparty's answer "=HYPERLINK(
// ...)") are written behind an apostrophe; ReadCSV drops it again.
func WriteCSV(w io.Writer, e *Export, bom bool) error {
	e = e.forWriting()
	bw := bufio.NewWriter(w)
	if bom {
		if _, err := bw.WriteString("\uFEFF"); err != nil {
			return err
		}
	}
	cw := csv.NewWriter(bw)
	cw.UseCRLF = true
	if err := cw.Write(Headers()); err != nil {
		return err
	}
	emails := e.emails()
	for _, r := range e.Rows {
		if err := cw.Write(csvsafe.Record(e.record(r, emails))); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}
