package exporters

import (
	"fmt"
	"path/filepath"
	"strings"
)

// ReadOptions choose what to read.
type ReadOptions struct {
	Sheet string // the sheet of a workbook; "" for the first
}

// ReadFile reads a request list from an .xlsx or .csv file (also .tsv and
// .txt, read as delimited text).
func ReadFile(path string, o ReadOptions) (*Sheet, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".xlsx", ".xlsm":
		return readXLSX(path, o)
	case ".csv", ".tsv", ".txt":
		if o.Sheet != "" {
			return nil, fmt.Errorf("--sheet applies to workbooks; %s is a text file", filepath.Base(path))
		}
		return readCSVFile(path)
	case ".xls", ".ods", ".numbers":
		return nil, fmt.Errorf("%s files are not read: save it as .xlsx or .csv (e.g. libreoffice --headless --convert-to xlsx %s)", ext, filepath.Base(path))
	default:
		return nil, fmt.Errorf("cannot tell what %s is: give a .xlsx or .csv file", filepath.Base(path))
	}
}
