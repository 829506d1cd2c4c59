package exporters

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"
)

// Printing: a deal team prints the list for meetings, so every sheet is
// set up as a tracker prints — landscape, as wide as the page, the header
// row on every page — and rows are made tall enough for their wrapped
// text, since neither Excel nor LibreOffice grows a row written by a
// program when the file is opened.

// printSetup is how one sheet prints.
type printSetup struct {
	sheet      string
	lastCol    string // the rightmost column printed
	lastRow    int
	fitToWidth bool   // one page wide (else 100 %, where manual page breaks hold)
	paper      int    // paperA4 or paperLetter
	banner     string // printed at the top of every page when set
	footer     string // printed at the bottom left of every page
}

// apply sets the sheet's page layout, margins, print titles and print
// area. On a stream-written sheet it must run before Flush.
func (p printSetup) apply(f *excelize.File) error {
	layout := &excelize.PageLayoutOptions{Orientation: ptr("landscape"), Size: ptr(p.paper)}
	if p.fitToWidth {
		// 0 pages tall: as many as the rows need.
		layout.FitToWidth, layout.FitToHeight = ptr(1), ptr(0)
	}
	if err := f.SetPageLayout(p.sheet, layout); err != nil {
		return err
	}
	if err := f.SetPageMargins(p.sheet, &excelize.PageLayoutMarginsOptions{
		Left: ptr(0.4), Right: ptr(0.4), Top: ptr(0.6), Bottom: ptr(0.6), Header: ptr(0.25), Footer: ptr(0.25),
	}); err != nil {
		return err
	}
	hf := &excelize.HeaderFooterOptions{
		OddFooter: headerFooterField("&L", p.footer, "&RPage &P of &N"),
	}
	if p.banner != "" {
		hf.OddHeader = headerFooterField("&C&\""+xlsxFont+",Bold\"&K"+warningText, p.banner, "")
	}
	if err := f.SetHeaderFooter(p.sheet, hf); err != nil {
		return err
	}
	if err := f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", Scope: p.sheet,
		RefersTo: fmt.Sprintf("'%s'!$1:$1", p.sheet)}); err != nil {
		return err
	}
	return f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area", Scope: p.sheet,
		RefersTo: fmt.Sprintf("'%s'!$A$1:$%s$%d", p.sheet, p.lastCol, max(p.lastRow, 1))})
}

// headerFooterField is a page header or footer: codes around text made
// safe — "&" starts a code (&P is the page number), so a deal named "M&A"
// would print "M" and a code — and cut to the 255 characters Excel
// allows (a long deal name would make the export fail).
func headerFooterField(prefix, text, suffix string) string {
	runes := []rune(text)
	for cut := false; ; cut = true {
		s := strings.ReplaceAll(string(runes), "&", "&&")
		if cut {
			s += "…"
		}
		field := prefix + s + suffix
		if len(utf16.Encode([]rune(field))) <= excelize.MaxFieldLength || len(runes) == 0 {
			return field
		}
		runes = runes[:len(runes)-1]
	}
}

// Row heights. A wrapped cell's lines are found by laying its words out
// in the column's width with each character's width in Arial; the
// estimate errs on the tall side, since a row too tall wastes a little
// paper while a row too short hides text.
const (
	lineHeight   = 12.75 // points per line of 10-point Arial, Excel's own figure
	rowPadding   = 2.25  // points above and below the text
	maxRowHeight = 409   // points: the most Excel allows
	// unitsPerEm is how many column-width units (the width of a digit
	// of the default font, 11-point Arial) one em of the cells' 10-point
	// text takes, with 4 % to spare. A column's width follows the digit
	// width of the font actually used (LibreOffice with DejaVu Sans in
	// place of Arial makes columns wider as well as text), so the ratio
	// holds whichever font stands in.
	unitsPerEm = 10.0 / (0.556 * 11) * 1.04
	cellMargin = 0.7 // units of padding inside a cell
)

// rowHeight is the height in points for a row whose wrapped cells hold
// texts, in columns of widths.
func rowHeight(texts []string, widths []float64) float64 {
	lines := 1
	for i, t := range texts {
		if t != "" && widths[i] > 0 {
			lines = max(lines, wrappedLines(t, widths[i]-cellMargin))
		}
	}
	return min(float64(lines)*lineHeight+rowPadding, maxRowHeight)
}

// wrappedLines is how many lines text takes when wrapped at spaces in a
// cell width units wide; a word wider than the cell is broken anywhere,
// as spreadsheets do.
func wrappedLines(text string, width float64) int {
	lines := 0
	for _, para := range strings.Split(text, "\n") {
		lines++
		used := 0.0
		for i, word := range strings.Split(para, " ") {
			w := textWidth(word)
			space := 0.0
			if i > 0 {
				space = charWidth(' ')
			}
			switch {
			case used+space+w <= width:
				used += space + w
			case w <= width:
				lines++
				used = w
			default: // broken over lines of its own
				if used > 0 {
					lines++
				}
				for _, r := range word {
					cw := charWidth(r)
					if used+cw > width && used > 0 {
						lines++
						used = 0
					}
					used += cw
				}
			}
		}
	}
	return lines
}

func textWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		w += charWidth(r)
	}
	return w
}

// charWidth is a character's width in column units, from Arial's
// advance widths grouped coarsely (em fractions).
func charWidth(r rune) float64 {
	var em float64
	switch {
	case strings.ContainsRune("iljI.,:;!|'", r):
		em = 0.25
	case r == ' ':
		em = 0.28
	case strings.ContainsRune("ftr()[]/-\"", r):
		em = 0.34
	case r == 'm' || r == 'w':
		em = 0.84
	case r == 'M' || r == 'W' || r == '@' || r == '%':
		em = 0.9
	case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		em = 0.56
	case r >= 'A' && r <= 'Z':
		em = 0.72
	case r < 0x80:
		em = 0.6
	case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hangul, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || (r >= 0xFF00 && r <= 0xFFEF):
		em = 1.0
	default:
		em = 0.72
	}
	return em * unitsPerEm
}
