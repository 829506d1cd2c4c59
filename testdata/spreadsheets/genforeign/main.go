//go:build ignore

// genforeign writes the foreign sheets of testdata/spreadsheets: lists as
// other tools write them, for the reader's tests. They are committed;
// rerun only to change them (LibreOffice must be installed):
//
//	go run testdata/spreadsheets/genforeign/main.go
//
// The csv and text files that matter for their bytes are written by
// LibreOffice itself from .fods sources: its default csv export
// (Windows-1252), its UTF-16 "Unicode text", and US date cells.
package main

import (
	"fmt"
	"html"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/xuri/excelize/v2"
)

const dir = "testdata/spreadsheets"

func main() {
	steps := []func() error{advisorLists, usTracker, descriptionOnly, hiddenColumnAndRow, mergedHeadings, droppedZero, unknownValues}
	for _, step := range steps {
		if err := step(); err != nil {
			log.Fatal(err)
		}
	}
}

// fods is a minimal flat OpenDocument spreadsheet: rows of cells, where a
// cell is a string, or a date ("date:2026-04-15") shown in dateStyle.
func fods(sheet, dateStyle string, rows [][]string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:automatic-styles>
`)
	b.WriteString(dateStyle)
	b.WriteString(`
<style:style style:name="date" style:family="table-cell" style:data-style-name="dates"/>
</office:automatic-styles>
<office:body><office:spreadsheet><table:table table:name="` + sheet + `">
`)
	for _, row := range rows {
		b.WriteString("<table:table-row>")
		for _, c := range row {
			switch {
			case c == "":
				b.WriteString("<table:table-cell/>")
			case strings.HasPrefix(c, "date:"):
				fmt.Fprintf(&b, `<table:table-cell table:style-name="date" office:value-type="date" office:date-value="%s"/>`, c[5:])
			default:
				fmt.Fprintf(&b, `<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>`, html.EscapeString(c))
			}
		}
		b.WriteString("</table:table-row>\n")
	}
	b.WriteString("</table:table></office:spreadsheet></office:body></office:document>\n")
	return b.String()
}

const (
	dayMonthYear = `<number:date-style style:name="dates"><number:day number:style="long"/><number:text>/</number:text><number:month number:style="long"/><number:text>/</number:text><number:year number:style="long"/></number:date-style>`
	monthDayYear = `<number:date-style style:name="dates"><number:month/><number:text>/</number:text><number:day/><number:text>/</number:text><number:year number:style="long"/></number:date-style>`
)

// convert runs LibreOffice on src: filter is its --convert-to argument.
func convert(src, filter, out string) error {
	tmp, err := os.MkdirTemp("", "genforeign")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("soffice", "--headless", "-env:UserInstallation=file://"+tmp+"/profile", "--convert-to", filter, "--outdir", tmp, src)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("soffice %s: %v\n%s", src, err, b)
	}
	base := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
	made, err := filepath.Glob(filepath.Join(tmp, base+".*"))
	if err != nil || len(made) != 1 {
		return fmt.Errorf("soffice made %v from %s", made, src)
	}
	data, err := os.ReadFile(made[0])
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}

// advisorLists: an advisor's list with "–", "£", "é" and "€", saved by
// LibreOffice as csv with its default options (Windows-1252; its plain
// csv export writes the dates in the locale's order, here US, 04/15/2026)
// and as UTF-16 "Unicode text" (tab-separated, with a byte-order mark, as
// Excel's "Unicode Text" is), which keeps the cells' day/month style.
func advisorLists() error {
	rows := [][]string{
		{"Project Falcon – commercial and tax requests"},
		{"Prepared by Deal Advisory LLP"},
		{},
		{"No.", "Request", "Details", "Workstream", "Requested by", "Due"},
		{"3", "Commercial"},
		{"3.1", "Revenue bridge FY24–FY25", "Monthly, in £000, with the budget – actual variance.", "Commercial", "Deal Advisory LLP", "date:2026-04-15"},
		{"3.2", "Customer contracts above £250,000", "Top 20 customers – signed copies with amendments.", "Commercial", "Deal Advisory LLP", "date:2026-04-03"},
		{"3.3", "Café leases – rent reviews", "", "Commercial", "Deal Advisory LLP", "date:2026-05-04"},
		{"4", "Tax"},
		{"4.1", "Corporation tax returns – last 3 years", "With computations (£ and €).", "Tax", "Numbers LLP", "date:2026-04-30"},
		{"4.2", "Stamp duty paid on property transfers (£)", "", "Tax", "Numbers LLP", "date:2026-06-01"},
	}
	src := filepath.Join(dir, "advisor-libreoffice.fods")
	if err := os.WriteFile(src, []byte(fods("Requests", dayMonthYear, rows)), 0o644); err != nil {
		return err
	}
	if err := convert(src, "csv", filepath.Join(dir, "advisor-libreoffice-1252.csv")); err != nil {
		return err
	}
	return convert(src, "txt:Text - txt - csv (StarCalc):9,34,65535", filepath.Join(dir, "advisor-unicode-text.txt"))
}

// usTracker: a 600-row VDR tracker kept in the US: dates month/day
// (LibreOffice's M/D/YYYY cells saved as csv), priority 1/2/3, a
// Workstream column, 30 sections of 19 requests numbered 3 to 32. The
// first 240 due dates all have days up to 12: only a later cell such as
// 12/13/2026 shows the column is month/day.
func usTracker() error {
	streams := []string{"Legal", "Financial", "Tax", "HR", "IT", "Commercial"}
	statuses := []string{"Open", "In Progress", "Complete", "Not Started"}
	rows := [][]string{
		{"VDR information request tracker – Project Falcon"},
		{"Req #", "Workstream", "Request", "Description", "Priority", "Status", "Owner", "Due Date", "Date Requested", "Comments"},
	}
	n := 0
	for s := 0; s < 30; s++ {
		rows = append(rows, []string{fmt.Sprint(s + 3), "", fmt.Sprintf("Workstream %d – %s", s+1, streams[s%6])})
		for r := 1; r <= 19; r++ {
			day := 1 + n%12
			if n >= 240 {
				day = 1 + n%28
			}
			month := 1 + (n/40)%12
			owner := ""
			if n%7 == 0 {
				owner = "alice@target.example"
			}
			rows = append(rows, []string{
				fmt.Sprintf("%d.%d", s+3, r), streams[s%6],
				fmt.Sprintf("Request %d: %s schedule %d", n+1, strings.ToLower(streams[s%6]), r),
				fmt.Sprintf("Provide item %d with supporting documents.", n+1),
				fmt.Sprint(1 + n%3), statuses[n%4], owner,
				fmt.Sprintf("date:2026-%02d-%02d", month, day), "date:2026-01-05", "",
			})
			n++
		}
	}
	tmp, err := os.MkdirTemp("", "tracker")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "us-vdr-tracker.fods")
	if err := os.WriteFile(src, []byte(fods("Tracker", monthDayYear, rows)), 0o644); err != nil {
		return err
	}
	// UTF-8 this time (76), as a US team's "CSV UTF-8" would be.
	return convert(src, "csv:Text - txt - csv (StarCalc):44,34,76", filepath.Join(dir, "us-vdr-tracker.csv"))
}

func save(f *excelize.File, name string) error {
	defer f.Close()
	return f.SaveAs(filepath.Join(dir, name))
}

// descriptionOnly: a list whose one text column is "Description", one
// description too long for a title.
func descriptionOnly() error {
	f := excelize.NewFile()
	sh := "List"
	f.SetSheetName("Sheet1", sh)
	long := "Copies of every supply, distribution and agency agreement with a value above 100,000 in any year since 2021. " +
		strings.Repeat("Include all amendments, side letters, renewals and termination notices, and say for each whether it has a change of control clause. ", 4)
	rows := [][]any{
		{"Ref", "Description", "Status", "Responsible"},
		{"5", "Contracts"},
		{"5.1", "Material customer contracts", "Open", "alice@target.example"},
		{"5.2", long, "Open", ""},
		{"5.3", "Framework agreements with public bodies", "Done", ""},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sh, cell, &r); err != nil {
			return err
		}
	}
	return save(f, "description-only.xlsx")
}

// hiddenColumnAndRow: an old "Request" column hidden beside the visible
// "Title" (which must win), a hidden "Internal" column, and a row hidden
// by a filter.
func hiddenColumnAndRow() error {
	f := excelize.NewFile()
	sh := "Requests"
	f.SetSheetName("Sheet1", sh)
	rows := [][]any{
		{"No.", "Request", "Title", "Internal", "Due", "Status"},
		{"6", "old: HR", "People", "", "", ""},
		{"6.1", "old: contracts", "Employment contracts of the top 20", "ask CFO", "2026-05-01", "Open"},
		{"6.2", "old: pension", "Pension scheme valuations", "", "2026-05-15", "Complete"},
		{"6.3", "old: bonus", "Bonus plans (filtered out)", "", "2026-05-20", "Complete"},
		{"6.4", "old: disputes", "Employment disputes", "", "2026-06-01", "Open"},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sh, cell, &r); err != nil {
			return err
		}
	}
	for _, col := range []string{"B", "D"} {
		if err := f.SetColVisible(sh, col, false); err != nil {
			return err
		}
	}
	if err := f.SetRowVisible(sh, 5, false); err != nil {
		return err
	}
	return save(f, "hidden-column-row.xlsx")
}

// mergedHeadings: a counsel's list whose headings are merged across the
// row, starting in the number cell ("7. ENVIRONMENTAL"), in the spare
// first column, or in the Details column; and a Workstream cell merged
// down its section's rows. LibreOffice saves it as csv too, where only
// the text of the merge's first cell remains.
func mergedHeadings() error {
	f := excelize.NewFile()
	sh := "DDRL"
	f.SetSheetName("Sheet1", sh)
	rows := [][]any{
		{"", "LEGAL DUE DILIGENCE REQUEST LIST"},
		{},
		{"", "Ref", "Request", "Details", "Workstream", "Due"},
		{"", "7. ENVIRONMENTAL"},
		{"", "7.1", "Environmental permits", "All permits in force.", "Legal", "2026-04-01"},
		{"", "7.2", "Contamination surveys", "", nil, "2026-04-15"},
		{"", "7.3", "Notices from regulators", "", nil, ""},
		{"HEALTH AND SAFETY"},
		{"", "8.1", "Accident book", "Last three years.", "Human resources", ""},
		{"", "8.2", "Health and safety policy", "", "Human resources", ""},
		{"", "", "", "9 – INSURANCE"},
		{"", "9.1", "Insurance policies", "", "Business", ""},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sh, cell, &r); err != nil {
			return err
		}
	}
	for _, m := range [][2]string{{"B1", "F1"}, {"B4", "F4"}, {"A8", "F8"}, {"D11", "F11"}, {"E5", "E7"}} {
		if err := f.MergeCell(sh, m[0], m[1]); err != nil {
			return err
		}
	}
	if err := save(f, "merged-headings.xlsx"); err != nil {
		return err
	}
	return convert(filepath.Join(dir, "merged-headings.xlsx"), "csv", filepath.Join(dir, "merged-headings-libreoffice.csv"))
}

// droppedZero: numbers typed into cells formatted as numbers, as Excel
// keeps them: 7.10 is stored as the number 7.1.
func droppedZero() error {
	f := excelize.NewFile()
	sh := "Sheet1"
	f.SetSheetRow(sh, "A1", &[]any{"Number", "Title"})
	f.SetSheetRow(sh, "A2", &[]any{7, "Environmental"})
	for i := 1; i <= 11; i++ {
		f.SetSheetRow(sh, fmt.Sprintf("A%d", i+2), &[]any{7 + float64(i)/map[bool]float64{true: 100, false: 10}[i >= 10], fmt.Sprintf("Environmental item %d", i)})
	}
	return save(f, "excel-number-7.10.xlsx")
}

// unknownValues: a team's own words: "Regulatory" and "ESG" workstreams,
// "N/A" and "Received" statuses, "TBC" due dates, priorities P1 and 2.
func unknownValues() error {
	csv := "No.,Request,Workstream,Status,Priority,Due\r\n" +
		"10,Regulatory matters,,,,\r\n" +
		"10.1,Licences held,Regulatory,Open,P1,2026-05-01\r\n" +
		"10.2,Correspondence with the regulator,Regulatory,N/A,2,TBC\r\n" +
		"10.3,Sanctions screening,Regulatory,Received,3,TBC\r\n" +
		"10.4,Emissions reporting,ESG,N/A,,2026-06-30\r\n" +
		"10.5,Data protection registrations,Legal,Open,P1,TBC\r\n"
	return os.WriteFile(filepath.Join(dir, "unknown-values.csv"), []byte(csv), 0o644)
}
