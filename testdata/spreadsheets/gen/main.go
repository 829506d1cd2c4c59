//go:build ignore

// gen writes the excelize-made templates of testdata/spreadsheets. They are
// committed; rerun only to change them:
//
//	go run testdata/spreadsheets/gen/main.go
//
// libreoffice-tracker.xlsx is made by LibreOffice itself from
// libreoffice-tracker.fods (see docs/spreadsheets.md).
package main

import (
	"log"
	"time"

	"github.com/xuri/excelize/v2"
)

func main() {
	if err := buyerList("testdata/spreadsheets/buyer-ddrl.xlsx"); err != nil {
		log.Fatal(err)
	}
	if err := bankWorkbook("testdata/spreadsheets/bank-1904.xlsx"); err != nil {
		log.Fatal(err)
	}
	if err := workstreamTabs("testdata/spreadsheets/workstream-tabs.xlsx"); err != nil {
		log.Fatal(err)
	}
}

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// buyerList is a buyer's counsel's list: title block, header on row 5,
// synonyms (Ref, Workstream, Item description, Deadline, Assigned to),
// numbered sections, real date cells, a Comments column import ignores,
// and a Cover sheet after the list.
func buyerList(path string) error {
	f := excelize.NewFile()
	defer f.Close()
	sh := "Request List"
	f.SetSheetName("Sheet1", sh)
	date, _ := f.NewStyle(&excelize.Style{NumFmt: 15}) // d-mmm-yy
	bold, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 14}})
	f.SetCellValue(sh, "A1", "PROJECT FALCON — LEGAL DUE DILIGENCE REQUEST LIST")
	f.SetCellStyle(sh, "A1", "A1", bold)
	f.MergeCell(sh, "A1", "I1")
	f.SetCellValue(sh, "A2", "Prepared by Lex & Co for Acme Capital")
	f.SetCellValue(sh, "A3", "Strictly private and confidential")
	header := []any{"Ref", "Workstream", "Item description", "Details", "Priority", "Requested by", "Deadline", "Assigned to", "Status", "Comments"}
	f.SetSheetRow(sh, "A5", &header)
	rows := [][]any{
		{"1", nil, "Corporate", nil, nil, nil, nil, nil, nil, nil},
		{"1.1", "Legal", "Certificate of incorporation", "Certified copy, with all amendments.", "High", "Lex & Co", day("2026-03-02"), "bob@acme.example", "Open", "chase"},
		{"1.2", "Legal", "Register of members", "", "Medium", "Lex & Co", day("2026-03-16"), "", "Open", nil},
		{"1.10", "Legal", "Shareholders' agreements", "All agreements in force,\nwith side letters.", "High", nil, day("2026-03-31"), "Alice Sato", "In progress", nil},
		{"2", nil, "Financial", nil, nil, nil, nil, nil, nil, nil},
		{"2.1", "Finance", "Audited accounts FY2023–FY2025", "", "High", "Numbers LLP", day("2026-02-27"), "alice@target.example", "Done", "received"},
		{"2.2", "Tax", "Corporation tax returns", "Last three years.", "Low", "Numbers LLP", nil, nil, nil, nil},
		{},
		{"3", nil, "People", nil, nil, nil, nil, nil, nil, nil},
		{"3.1", "HR", "Employee census", "Anonymised.", "Med", nil, day("2026-04-01"), nil, nil, nil},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, 6+i)
		f.SetSheetRow(sh, cell, &r)
		if len(r) > 6 && r[6] != nil {
			g, _ := excelize.CoordinatesToCellName(7, 6+i)
			f.SetCellStyle(sh, g, g, date)
		}
	}
	f.NewSheet("Cover")
	f.SetCellValue("Cover", "A1", "Send answers to dd@lexco.example")
	return f.SaveAs(path)
}

// bankWorkbook is a bank's workbook in the 1904 date system (old Mac
// Excel), with a Cover sheet first, so it needs --sheet; Excel serials in
// the Due column, unnumbered requests under heading rows, a Kind column.
func bankWorkbook(path string) error {
	f := excelize.NewFile()
	defer f.Close()
	t := true
	if err := f.SetWorkbookProps(&excelize.WorkbookPropsOptions{Date1904: &t}); err != nil {
		return err
	}
	f.SetSheetName("Sheet1", "Cover")
	f.SetCellValue("Cover", "A1", "Osprey sell-side data request")
	sh := "DD Requests"
	f.NewSheet(sh)
	date, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	header := []any{"No.", "Type", "Request", "Description", "Category", "Due", "Owner", "Requester"}
	f.SetSheetRow(sh, "A1", &header)
	rows := [][]any{
		{"A", "Section", "Commercial", nil, nil, nil, nil, nil},
		{"A.1", "Request", "Top 20 customers by revenue", "FY2025, with contract terms.", "Commercial", day("2026-05-01"), nil, "Harbour Bank"},
		{"A.2", "Request", "Supplier concentration", nil, "Business", day("2026-05-15"), nil, "Harbour Bank"},
		{"B", "Section", "Technology", nil, nil, nil, nil, nil},
		{"B.1", "Request", "IT systems map", "Diagram and inventory.", "IT", day("2026-06-30"), nil, nil},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, 2+i)
		f.SetSheetRow(sh, cell, &r)
		g, _ := excelize.CoordinatesToCellName(6, 2+i)
		f.SetCellStyle(sh, g, g, date)
	}
	f.SetActiveSheet(0)
	return f.SaveAs(path)
}

// workstreamTabs is a bank's workbook with one tab per workstream, each
// numbered from 1 on its own: imported into a deal whose sections are
// numbered 1–5, the tab's rows collide with the sections unless put
// under one (--under). "Financial" has a title row over its header;
// "Tax" has its own heading row over 1.1, 1.2, 1.3.
func workstreamTabs(path string) error {
	f := excelize.NewFile()
	defer f.Close()
	date, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	tabs := []struct {
		name  string
		title string
		rows  [][]any
	}{
		{"Corporate", "", [][]any{
			{"1", "Group structure chart", "High", day("2026-05-01"), "Open"},
			{"2", "Constitutional documents", "Medium", day("2026-05-08"), "Open"},
		}},
		{"Financial", "Project Falcon — financial information request", [][]any{
			{"1", "Audited accounts", "High", day("2026-05-01"), "Open"},
			{"2", "Monthly management accounts FY2025", "High", day("2026-05-01"), "Open"},
			{"3", "Debt schedule", "Medium", day("2026-05-15"), "Open"},
			{"4", "Working capital analysis", "Medium", day("2026-05-15"), "Open"},
			{"5", "Capex plan", "Low", nil, "Open"},
		}},
		{"Tax", "", [][]any{
			{"1", "TAX", nil, nil, nil},
			{"1.1", "Corporation tax returns", "High", day("2026-05-01"), "Open"},
			{"1.2", "VAT returns", "Medium", nil, "Open"},
			{"1.3", "Transfer pricing documentation", "Low", nil, "Open"},
		}},
		{"People", "", [][]any{{"1", "Employee census", "Medium", nil, "Open"}}},
		{"IT", "", [][]any{{"1", "IT systems map", "Medium", nil, "Open"}}},
	}
	for i, tab := range tabs {
		if i == 0 {
			f.SetSheetName("Sheet1", tab.name)
		} else {
			f.NewSheet(tab.name)
		}
		top := 1
		if tab.title != "" {
			f.SetCellValue(tab.name, "A1", tab.title)
			top = 3
		}
		header := []any{"No.", "Request", "Priority", "Due", "Status"}
		cell, _ := excelize.CoordinatesToCellName(1, top)
		f.SetSheetRow(tab.name, cell, &header)
		for j, r := range tab.rows {
			cell, _ := excelize.CoordinatesToCellName(1, top+1+j)
			f.SetSheetRow(tab.name, cell, &r)
			d, _ := excelize.CoordinatesToCellName(4, top+1+j)
			f.SetCellStyle(tab.name, d, d, date)
		}
	}
	f.SetActiveSheet(0)
	return f.SaveAs(path)
}
