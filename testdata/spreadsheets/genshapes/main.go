//go:build ignore

// genshapes writes the sheets of testdata/spreadsheets that deal teams'
// own lists are shaped like, for the reader's tests of rows read as
// people mean them (docs/spreadsheets.md, "Rows without a number"). They
// are committed; rerun only to change them:
//
//	go run testdata/spreadsheets/genshapes/main.go
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/xuri/excelize/v2"
)

const dir = "testdata/spreadsheets"

func main() {
	steps := []func() error{germanDates, bankTracker, counselRoman, peLettered, vdrExport, unknownNumberHeader, formulasWithoutValues}
	for _, step := range steps {
		if err := step(); err != nil {
			log.Fatal(err)
		}
	}
}

func write(f *excelize.File, sh string, rows [][]any) error {
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sh, cell, &r); err != nil {
			return err
		}
	}
	return nil
}

func save(f *excelize.File, name string) error {
	defer f.Close()
	return f.SaveAs(filepath.Join(dir, name))
}

// germanDates: a list typed in German Excel, where "13.1" in a General
// cell becomes 13 January (the day count 46035, shown DD.MM.YYYY); 13 and
// 14 stay numbers. The csv is what such a sheet saves as.
func germanDates() error {
	f := excelize.NewFile()
	sh := "Anforderungen"
	f.SetSheetName("Sheet1", sh)
	rows := [][]any{
		{"Nr.", "Information required", "Bemerkung"},
		{13, "Gesellschaftsrecht"},
		{46035, "Handelsregisterauszug", ""},
		{46066, "Gesellschaftsvertrag", ""},
		{14, "Finanzen"},
		{46036, "Jahresabschlüsse 2023–2025", ""},
		{46067, "Management accounts", ""},
	}
	if err := write(f, sh, rows); err != nil {
		return err
	}
	format := "DD.MM.YYYY"
	style, err := f.NewStyle(&excelize.Style{CustomNumFmt: &format})
	if err != nil {
		return err
	}
	for _, cell := range []string{"A3", "A4", "A6", "A7"} {
		if err := f.SetCellStyle(sh, cell, cell, style); err != nil {
			return err
		}
	}
	if err := save(f, "german-excel-dates.xlsx"); err != nil {
		return err
	}
	csv := "Nr.;Information required;Bemerkung\r\n13;Gesellschaftsrecht;\r\n13.01.2026;Handelsregisterauszug;\r\n13.02.2026;Gesellschaftsvertrag;\r\n" +
		"14;Finanzen;\r\n14.01.2026;Jahresabschlüsse 2023–2025;\r\n14.02.2026;Management accounts;\r\n"
	return os.WriteFile(filepath.Join(dir, "german-excel-dates-saved.csv"), []byte(csv), 0o644)
}

// bankTracker: a bank's tracker: "Ref" and "Document / Information
// Requested", a closing note, a totals block whose counts are formulas
// with saved values, and a priority key below the list.
func bankTracker() error {
	f := excelize.NewFile()
	sh := "Tracker"
	f.SetSheetName("Sheet1", sh)
	rows := [][]any{
		{"Project Atlas – information request tracker"},
		{},
		{"Ref", "Document / Information Requested", "Priority", "Status", "Due"},
		{1, "Corporate"},
		{"1.1", "Group structure chart", "High", "Complete", "2026-03-02"},
		{"1.2", "Register of members", "Medium", "Open", "2026-03-09"},
		{2, "Finance"},
		{"2.1", "Audited accounts FY2023–FY2025", "High", "In progress", "2026-03-02"},
		{"2.2", "Monthly management accounts", "Medium", "Open", "2026-03-16"},
		{"2.3", "Debt schedule", "Low", "Open", ""},
		{},
		{"", "Note: documents are to be uploaded to the data room, folder 3."},
		{},
		{"", "Total requests", 5},
		{"", "Outstanding", 4},
		{"", "Complete", 1},
		{},
		{"", "Priority key"},
		{"", "High – required before signing"},
		{"", "Medium – required before completion"},
		{"", "Low – post-completion"},
	}
	if err := write(f, sh, rows); err != nil {
		return err
	}
	for cell, formula := range map[string]string{"C14": "COUNTA(B5:B10)", "C15": `COUNTIF(D5:D10,"<>Complete")`, "C16": `COUNTIF(D5:D10,"Complete")`} {
		if err := f.SetCellFormula(sh, cell, formula); err != nil {
			return err
		}
	}
	// SetCellFormula drops the saved value: set it again, as Excel saves it.
	for cell, v := range map[string]int{"C14": 5, "C15": 4, "C16": 1} {
		if err := f.SetCellInt(sh, cell, int64(v)); err != nil {
			return err
		}
	}
	for cell, formula := range map[string]string{"C14": "COUNTA(B5:B10)", "C15": `COUNTIF(D5:D10,"<>Complete")`, "C16": `COUNTIF(D5:D10,"Complete")`} {
		if err := f.SetCellFormula(sh, cell, formula); err != nil {
			return err
		}
	}
	return save(f, "bank-tracker-totals.xlsx")
}

// counselRoman: a US counsel's DDRL: Roman sections I to X with their
// headings in bold, titles wrapped onto a second row, a closing note.
func counselRoman() error {
	f := excelize.NewFile()
	sh := "DDRL"
	f.SetSheetName("Sheet1", sh)
	sections := []string{"CORPORATE", "FINANCIAL", "TAX", "REAL PROPERTY", "INTELLECTUAL PROPERTY", "EMPLOYMENT", "LITIGATION", "ENVIRONMENTAL", "INSURANCE", "REGULATORY"}
	roman := []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"}
	rows := [][]any{
		{"LEGAL DUE DILIGENCE REQUEST LIST"},
		{},
		{"No.", "Request", "Comments"},
	}
	var bold []int
	for i, s := range sections {
		rows = append(rows, []any{roman[i], s})
		bold = append(bold, len(rows))
		rows = append(rows, []any{roman[i] + ".1", "Copies of all material agreements relating to " + sections[i], ""})
		if i == 0 {
			rows = append(rows, []any{"I.2", "Shareholders' agreements, voting agreements", ""})
			rows = append(rows, []any{"", "and deeds of adherence"})
			rows = append(rows, []any{"I.3", "Minutes of board meetings since 2021", ""})
		}
		if i == 1 {
			rows = append(rows, []any{"II.2", "Copies of all loan agreements, guarantees and", ""})
			rows = append(rows, []any{"", "security documents"})
		}
	}
	rows = append(rows, []any{}, []any{"", "This list is not exhaustive; we reserve the right to request further documents."})
	if err := write(f, sh, rows); err != nil {
		return err
	}
	style, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	for _, r := range bold {
		if err := f.SetCellStyle(sh, fmt.Sprintf("A%d", r), fmt.Sprintf("B%d", r), style); err != nil {
			return err
		}
	}
	return save(f, "counsel-ddrl-roman.xlsx")
}

// peLettered: a PE sponsor's tracker, sections lettered A to C, one of
// them an unnumbered bold heading above its lettered rows.
func peLettered() error {
	f := excelize.NewFile()
	sh := "Tracker"
	f.SetSheetName("Sheet1", sh)
	rows := [][]any{
		{"#", "Requirement", "Workstream", "Priority", "Status"},
		{"A", "Commercial"},
		{"A.1", "Customer contracts above 1m", "Commercial", "H", "Open"},
		{"A.2", "Pipeline report", "Commercial", "M", "Open"},
		{"B", "Financial"},
		{"B.1", "Quality of earnings report", "Finance", "H", "In progress"},
		{"", "Legal"},
		{"C.1", "Litigation schedule", "Legal", "M", "Open"},
		{"C.2", "Material licences", "Legal", "L", "Open"},
	}
	if err := write(f, sh, rows); err != nil {
		return err
	}
	style, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	if err := f.SetCellStyle(sh, "A7", "B7", style); err != nil {
		return err
	}
	return save(f, "pe-tracker-lettered.xlsx")
}

// vdrExport: a VDR's Q&A export: "Request ID" ids Q-0001..., "Query",
// and a Due column holding days after signing and phrases.
func vdrExport() error {
	csv := "Request ID,Query,Category,Due,Status\r\n" +
		"Q-0001,Please provide the cap table,Legal,2026-03-01,Open\r\n" +
		"Q-0002,Provide the customer churn analysis,Commercial,5,Open\r\n" +
		"Q-0003,Confirm there is no pending litigation,Legal,TBC,Answered\r\n" +
		"Q-0004,Provide the IT security policies,IT,Signing,Open\r\n" +
		"Q-0005,List all change of control clauses,Legal,10,Open\r\n"
	return os.WriteFile(filepath.Join(dir, "vdr-qa-export.csv"), []byte(csv), 0o644)
}

// unknownNumberHeader: a list whose number column is headed "Pos.", a
// header dealctl does not know.
func unknownNumberHeader() error {
	csv := "Pos.,Request,Status\r\n1,Corporate,\r\n1.1,Articles of association,Open\r\n1.2,Register of members,Open\r\n" +
		"2,Finance,\r\n2.1,Audited accounts,Open\r\n"
	return os.WriteFile(filepath.Join(dir, "unknown-number-header.csv"), []byte(csv), 0o644)
}

// formulasWithoutValues: a number column of formulas (=ROW()-1) written
// by a tool that computes no values, so the file holds none.
func formulasWithoutValues() error {
	f := excelize.NewFile()
	sh := "Sheet1"
	rows := [][]any{{"No.", "Request", "Status"}, {nil, "Articles of association", "Open"}, {nil, "Register of members", "Open"}, {nil, "Audited accounts", "Open"}}
	if err := write(f, sh, rows); err != nil {
		return err
	}
	for r := 2; r <= 4; r++ {
		if err := f.SetCellFormula(sh, fmt.Sprintf("A%d", r), "ROW()-1"); err != nil {
			return err
		}
	}
	return save(f, "formulas-without-values.xlsx")
}
