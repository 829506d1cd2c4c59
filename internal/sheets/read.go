package sheets

import (
	"fmt"
	"path/filepath"
	"strings"
)

// ReadOptions choose what to read and how to read what people write.
type ReadOptions struct {
	Sheet string // the sheet of a workbook; "" for the first
	// Encoding names a text file's encoding (--encoding); "" reads the
	// byte-order mark, else UTF-8, else Windows-1252 with a note.
	Encoding string
	// DateOrder reads slashed dates such as 03/04/2026 (--date-order);
	// "" infers it from each date column's unambiguous cells.
	DateOrder DateOrder
	// Map replaces cell values before they are read (--map).
	Map ValueMap
}

// ReadFile reads a request list from an .xlsx or .csv file (also .tsv and
// .txt, read as delimited text).
func ReadFile(path string, o ReadOptions) (*Sheet, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".xlsx", ".xlsm":
		if o.Encoding != "" {
			return nil, fmt.Errorf("--encoding applies to text files; %s is a workbook, which says its own", filepath.Base(path))
		}
		return readXLSX(path, o)
	case ".csv", ".tsv", ".txt":
		if o.Sheet != "" {
			return nil, fmt.Errorf("--sheet applies to workbooks; %s is a text file", filepath.Base(path))
		}
		return readCSVFile(path, o)
	case ".xls", ".ods", ".numbers":
		return nil, fmt.Errorf("%s files are not read: save it as .xlsx or .csv (e.g. libreoffice --headless --convert-to xlsx %s)", ext, filepath.Base(path))
	default:
		return nil, fmt.Errorf("cannot tell what %s is: give a .xlsx or .csv file", filepath.Base(path))
	}
}
