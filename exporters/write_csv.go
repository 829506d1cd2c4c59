package exporters

import (
	"bufio"
	"encoding/csv"
	"io"
)

// WriteCSV writes the list as RFC 4180 csv in UTF-8 (CRLF line ends, as
// the RFC says). bom prepends a byte-order mark, without which Excel reads
// UTF-8 as the local code page and mangles accents.
func WriteCSV(w io.Writer, e *Export, bom bool) error {
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
		if err := cw.Write(e.record(r, emails)); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}
