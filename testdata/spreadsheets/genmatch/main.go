//go:build ignore

// genmatch writes the sheets of the import's matching tests (issue 25,
// "Matching by identity, never by guess"). They are committed; rerun
// only to change them:
//
//	go run testdata/spreadsheets/genmatch/main.go
package main

import (
	"log"

	"github.com/xuri/excelize/v2"
)

func main() {
	if err := counselTemplate("testdata/spreadsheets/counsel-template.xlsx"); err != nil {
		log.Fatal(err)
	}
}

// counselTemplate is a law firm's standard due diligence template: a
// title block, bold headings in capitals (1 CORPORATE, 2 FINANCIAL,
// 3 TAX) over items 1.1–3.3 that ask for other documents than the
// deal's rows of the same numbers, and a Status column of "Open".
func counselTemplate(path string) error {
	f := excelize.NewFile()
	defer f.Close()
	sh := "DD Request List"
	f.SetSheetName("Sheet1", sh)
	bold, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	f.SetCellValue(sh, "A1", "STANDARD LEGAL DUE DILIGENCE REQUEST LIST")
	f.SetCellValue(sh, "A2", "Lex & Co LLP — template v7")
	header := []any{"Ref", "Item description", "Details", "Status"}
	f.SetSheetRow(sh, "A4", &header)
	rows := [][]any{
		{"1", "CORPORATE"},
		{"1.1", "Group structure chart", "Showing all subsidiaries and shareholdings.", "Open"},
		{"1.2", "Shareholders' agreements", "All agreements between shareholders of any group company.", "Open"},
		{"1.3", "Powers of attorney", "Any power of attorney granted by a group company.", "Open"},
		{"2", "FINANCIAL"},
		{"2.1", "Financial statements of the pension scheme", "The last three years.", "Open"},
		{"2.2", "Group accounts consolidation workings", "", "Open"},
		{"2.3", "Bank facility agreements", "With all amendments and waivers.", "Open"},
		{"3", "TAX"},
		{"3.1", "Group tax returns", "Corporation tax returns for the last six years.", "Open"},
		{"3.2", "Tax disputes", "Any open enquiry or dispute with a tax authority.", "Open"},
		{"3.3", "Tax agreements and rulings", "Copies of all rulings and clearances.", "Open"},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, 5+i)
		f.SetSheetRow(sh, cell, &r)
		if len(r) == 2 {
			end, _ := excelize.CoordinatesToCellName(4, 5+i)
			f.SetCellStyle(sh, cell, end, bold)
		}
	}
	return f.SaveAs(path)
}
