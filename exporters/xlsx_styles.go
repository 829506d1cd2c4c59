package exporters

import (
	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/internal/api"
)

// xlsxStyles are the style ids the workbook uses, made once per file.
type xlsxStyles struct {
	header, section, sectionDateTime, sectionTitle, bold, text, wrap, date, dateTime, link int
	status, statusHeader                                                                   map[api.RequestStatus]int
}

// Status fills: a deal team reads a list by colour first.
var statusFill = map[api.RequestStatus]string{
	api.StatusOpen:     "FCE4D6", // light orange: waiting
	api.StatusPartial:  "FFF2CC", // light yellow: under way
	api.StatusComplete: "E2EFDA", // light green: done
}

func newXLSXStyles(f *excelize.File) (*xlsxStyles, error) {
	s := &xlsxStyles{status: map[api.RequestStatus]int{}, statusHeader: map[api.RequestStatus]int{}}
	top := excelize.Alignment{Vertical: "top"}
	border := []excelize.Border{{Type: "bottom", Color: "BFBFBF", Style: 1}}
	defs := []struct {
		id    *int
		style excelize.Style
	}{
		{&s.header, excelize.Style{
			Font:      &excelize.Font{Bold: true, Color: "FFFFFF"},
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"305496"}},
			Alignment: &excelize.Alignment{Vertical: "center", WrapText: true},
			Border:    border,
		}},
		{&s.section, excelize.Style{
			Font:      &excelize.Font{Bold: true, Size: 12},
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"D9E1F2"}},
			Alignment: &top,
			Border:    []excelize.Border{{Type: "top", Color: "8EA9DB", Style: 1}},
		}},
		{&s.sectionDateTime, excelize.Style{
			Font:         &excelize.Font{Bold: true, Size: 12},
			Fill:         excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"D9E1F2"}},
			Alignment:    &top,
			Border:       []excelize.Border{{Type: "top", Color: "8EA9DB", Style: 1}},
			CustomNumFmt: ptr("yyyy-mm-dd hh:mm"),
		}},
		{&s.sectionTitle, excelize.Style{Font: &excelize.Font{Bold: true, Size: 14}}},
		{&s.bold, excelize.Style{Font: &excelize.Font{Bold: true}, Border: []excelize.Border{{Type: "top", Color: "000000", Style: 1}}}},
		{&s.text, excelize.Style{Alignment: &top}},
		{&s.wrap, excelize.Style{Alignment: &excelize.Alignment{Vertical: "top", WrapText: true}}},
		{&s.date, excelize.Style{Alignment: &top, CustomNumFmt: ptr("yyyy-mm-dd")}},
		{&s.dateTime, excelize.Style{Alignment: &top, CustomNumFmt: ptr("yyyy-mm-dd hh:mm")}},
		{&s.link, excelize.Style{Alignment: &excelize.Alignment{Vertical: "top", WrapText: true},
			Font: &excelize.Font{Color: "0563C1", Underline: "single"}}},
	}
	for _, d := range defs {
		id, err := f.NewStyle(&d.style)
		if err != nil {
			return nil, err
		}
		*d.id = id
	}
	for st, color := range statusFill {
		id, err := f.NewStyle(&excelize.Style{
			Alignment: &top,
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}},
		})
		if err != nil {
			return nil, err
		}
		s.status[st] = id
		if id, err = f.NewStyle(&excelize.Style{
			Font: &excelize.Font{Bold: true},
			Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}},
		}); err != nil {
			return nil, err
		}
		s.statusHeader[st] = id
	}
	return s, nil
}

func ptr[T any](v T) *T { return &v }
