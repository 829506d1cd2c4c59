package sheets

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// SkippedRow is a row of the sheet that is not a request or a section,
// and is not imported: a totals line, a legend, a note, or an unnumbered
// line nothing sits under.
type SkippedRow struct {
	Line int    `json:"row"`
	Text string `json:"text"`
	Why  string `json:"why"`
}

// The reasons a row is skipped, as the note names them.
const (
	whyTotals   = "a totals block"
	whyLegend   = "a legend"
	whyNote     = "a note"
	whyHeader   = "the header row again (a page break of a list converted from PDF) or a page number"
	whyNoNumber = "without a number, and no numbered rows sit under them (not a heading): give each a number to import it as a request"
	// whyEmptyHeading: a heading over rows numbered without its number.
	whyEmptyHeading = "headings, but the rows below are numbered without their number, so nothing would sit under them: give each the number its rows start with (7 above 7.1, 7.2) to import it as a section"
)

// strayPatterns are compiled when a sheet is first read:
//   - totals: a label a tracker's totals block uses, whole-cell;
//   - statusCount: a status word that a totals block counts, whole-cell;
//   - legend: a key to the sheet's codes;
//   - legendLine: one entry of a key ("High = before signing");
//   - legendWord: what an entry of a key starts with;
//   - note: a line that remarks on the list;
//   - page: a page number left by a conversion from PDF;
//   - count: what a totals line holds beside its label.
var strayPatterns = sync.OnceValue(func() (p struct{ totals, statusCount, legend, legendLine, legendWord, note, page, count *regexp.Regexp }) {
	p.totals = regexp.MustCompile(`(?i)^(grand |sub[- ]?)?totals?( (number of )?(requests|items|queries|questions|documents|open items))?( \(.*\))?$|^(number|no\.?|count|#) of (requests|items|queries|questions)$`)
	p.statusCount = regexp.MustCompile(`(?i)^(outstanding|open|closed|complete|completed|done|received|provided|pending|partial|partially (complete|provided|received)|in progress|not started|overdue|answered|unanswered|remaining|% ?complete|percent(age)? complete)( (requests|items|queries))?$`)
	p.legend = regexp.MustCompile(`(?i)^((priority|status|rag|colou?r|abbreviations?)\s+)?(key|legend)( to .*)?$|^(priority|status|rag|colou?r)\s+(key|legend|codes?)$|^abbreviations$`)
	p.legendLine = regexp.MustCompile(`(?i)^(high|medium|med|low|h|m|l|p[0-3]|red|amber|green|rag|critical|urgent)\s*(=|:|–|—|-)\s*\S`)
	p.legendWord = regexp.MustCompile(`(?i)^(high|medium|med|low|red|amber|green|critical|urgent|p[0-3]|open|complete|partial)\b`)
	p.note = regexp.MustCompile(`(?i)^(notes?\b|nb\b|n\.b\.|\*|†|please note\b|source:|prepared by\b|last updated\b|confidential\b|privileged\b|subject to contract\b|disclaimer\b|this list\b)`)
	p.page = regexp.MustCompile(`(?i)^(page|seite|p\.)\s*\d+(\s*(of|/|von)\s*\d+)?$`)
	p.count = regexp.MustCompile(`^(\d{1,6}(\.\d+)?%?|\d{1,3}(,\d{3})+|\d+ ?(/|of) ?\d+)$`)
	return p
})

// strayRows finds the rows of a sheet that are not part of the list
// before they are read as rows: a totals block ("Total requests" 42,
// "Outstanding" 17), a legend (a "Priority key" and the lines below it),
// a note ("Note: ...", "* items marked ..."), and lone text outside the
// title column. Their cells would otherwise be read as values (a count
// as a number or a priority). It returns the skipped rows by 0-based
// grid row.
//
// A row whose only text sits in the Details column right below a request
// is the rest of that request's text, wrapped onto a row of its own: it
// is added to the row above's (in grid) and named in joined.
func strayRows(grid [][]string, headerLine int, m Mapping, hidden func(int) bool) (out map[int]SkippedRow, joined map[int]string) {
	p := strayPatterns()
	out, joined = map[int]SkippedRow{}, map[int]string{}
	title := m.Index[FieldTitle]
	body, hasBody := m.Index[FieldBody]
	lastNumbered := -1 // the row above, when it is a numbered row with a title
	numberAlone := -1  // the row above, when it holds a number and nothing else
	inTotals, inLegend := false, false
	mapped := map[int]bool{}
	for _, j := range m.Index {
		mapped[j] = true
	}
	var texts []string
	var cols []int
	for i := headerLine; i < len(grid); i++ {
		if hidden(i) {
			continue
		}
		texts, cols = mappedTexts(grid[i], mapped, texts[:0], cols[:0])
		if len(texts) == 0 {
			inTotals, inLegend = false, false // a blank row ends a block
			lastNumbered, numberAlone = -1, -1
			continue
		}
		if numberAlone == i-1 && len(texts) == 1 && cols[0] == title {
			// A list converted from PDF puts a number and its title on
			// rows of their own.
			setCell(grid, numberAlone, title, texts[0])
			joined[i] = fmt.Sprintf("row %d (%q) is the title of the number on row %d above it: read as one row", i+1, shorten(OneLine(texts[0]), 40), numberAlone+1)
			lastNumbered, numberAlone = numberAlone, -1
			continue
		}
		numberAlone = -1
		if hasBody && !m.TitleFromBody && len(texts) == 1 && cols[0] == body && body != title && lastNumbered >= 0 && !p.note.MatchString(texts[0]) {
			// Left as lastNumbered, so that a third line joins too.
			setCell(grid, lastNumbered, body, strings.TrimSpace(cellAt(grid[lastNumbered], body)+"\n"+texts[0]))
			joined[i] = fmt.Sprintf("row %d (%q) continues the text of row %d above it: added to it", i+1, shorten(OneLine(texts[0]), 40), lastNumbered+1)
			continue
		}
		lastNumbered = -1
		number := indexOr(m, FieldNumber)
		label, counts, others := splitLabel(texts, cols, number)
		lc := strings.TrimRight(label, ": ")
		skip := func(why string) { out[i] = SkippedRow{Line: i + 1, Text: OneLine(label), Why: why} }
		numbered := isNumberCell(cellAt(grid[i], number))
		switch {
		case repeatsHeader(texts, cols, m) || (len(texts) == 1 && p.page.MatchString(texts[0])):
			skip(whyHeader)
		case label == "" && counts > 0 && inTotals:
			skip(whyTotals)
		case label == "":
		case p.totals.MatchString(lc) && others == 0:
			skip(whyTotals)
			inTotals = true
		case p.statusCount.MatchString(lc) && others == 0 && (counts > 0 || inTotals):
			// A count beside the label, not in the number cell: "5 |
			// Open items" is a request numbered 5.
			skip(whyTotals)
			inTotals = true
		case p.legend.MatchString(lc) && others == 0 && !numbered:
			skip(whyLegend)
			inLegend = true
		case inLegend && len(texts) <= 3 && (!numbered || p.legendWord.MatchString(label)):
			// A numbered row ends the key, unless it is one of its
			// entries ("1 | High – before signing").
			skip(whyLegend)
		case numbered:
			inTotals, inLegend = false, false
		case p.legendLine.MatchString(label) && len(texts) == 1:
			skip(whyLegend)
		case p.note.MatchString(label):
			skip(whyNote)
		case len(texts) == 1 && cols[0] != title && cols[0] != number && !m.TitleFromBody:
			// Lone text outside the title column, not numbered (a
			// heading there was moved to the title cell already): a
			// remark beside the list.
			skip(whyNote)
		default:
			inTotals, inLegend = false, false
		}
		if _, skipped := out[i]; !skipped && strings.TrimSpace(cellAt(grid[i], title)) != "" && numbered {
			lastNumbered = i
		}
		if _, skipped := out[i]; !skipped && numbered && len(texts) == 1 && cols[0] == number && headingPatterns().numberLike.MatchString(OneLine(texts[0])) {
			numberAlone = i
		}
	}
	return out, joined
}

// repeatsHeader reports a row whose cells are the header's names again:
// each names the field of its own column.
func repeatsHeader(texts []string, cols []int, m Mapping) bool {
	if len(texts) < 2 {
		return false
	}
	for k, t := range texts {
		f, ok := FieldFor(t)
		if !ok || m.Index[f] != cols[k] {
			return false
		}
	}
	return true
}

// mappedTexts appends the non-blank cells of the mapped columns, in
// column order, to texts, and their columns to cols.
func mappedTexts(cells []string, mapped map[int]bool, texts []string, cols []int) ([]string, []int) {
	for j, c := range cells {
		if !mapped[j] {
			continue
		}
		if t := strings.TrimSpace(c); t != "" {
			texts, cols = append(texts, t), append(cols, j)
		}
	}
	return texts, cols
}

func mappedColumn(m Mapping, j int) bool {
	for _, k := range m.Index {
		if k == j {
			return true
		}
	}
	return false
}

func indexOr(m Mapping, f Field) int {
	if j, ok := m.Index[f]; ok {
		return j
	}
	return -1
}

// splitLabel reads a row's cells as a label and counts: the first cell
// that is not a count is the label ("Total requests: 42" gives its count
// too); counts are the cells outside the number column that are numbers
// or percentages; others are further text cells.
func splitLabel(texts []string, cols []int, number int) (label string, counts, others int) {
	p := strayPatterns()
	for k, t := range texts {
		switch {
		case p.count.MatchString(t) || isFormulaText(t):
			if cols[k] != number {
				counts++
			}
		case label == "":
			label = t
			if k := strings.LastIndexAny(t, ":=–-"); k > 0 && p.count.MatchString(strings.TrimSpace(t[k+1:])) {
				label = strings.TrimSpace(t[:k])
				counts++
			}
		default:
			others++
		}
	}
	return label, counts, others
}

// isFormulaText is a cell holding a formula's text rather than its value
// (a csv saved with formulas shown).
func isFormulaText(s string) bool { return strings.HasPrefix(s, "=") && len(s) > 1 }

// isNumberCell reports whether a number cell holds a request number
// (digits, or dotted letters and digits), not a label.
func isNumberCell(s string) bool {
	s = OneLine(s)
	if s == "" {
		return false
	}
	if headingPatterns().numberLike.MatchString(s) {
		return strings.ContainsAny(s, "0123456789.") || utf8.RuneCountInString(s) <= 4
	}
	n, _ := splitHeadingCell(s)
	return n != ""
}

// continuesTitle reports whether a title-only line reads as the rest of
// the title above it, wrapped onto a row of its own: it starts in lower
// case ("and deeds of adherence"), or the line above breaks off on a word
// or sign that needs more ("Copies of all leases, licences and").
func continuesTitle(above, text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	if unicode.IsLower(r) || strings.ContainsRune("&(,;–-/", r) {
		return true
	}
	above = strings.TrimSpace(above)
	if above == "" {
		return false
	}
	if last, _ := utf8.DecodeLastRuneInString(above); strings.ContainsRune(",;:&(/–-", last) {
		return true
	}
	words := strings.Fields(strings.ToLower(above))
	switch words[len(words)-1] {
	case "and", "or", "of", "the", "to", "for", "with", "in", "on", "by", "including", "any", "all", "a", "an":
		return true
	}
	return false
}

// markedHeading reports whether the sheet shows a row as a heading
// itself: its title in capitals (a csv keeps no more), bold, or merged
// across the row (a workbook knows).
func markedHeading(title string, shown bool) bool {
	if shown {
		return true
	}
	letters := 0
	for _, r := range title {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 2 && strings.ToUpper(title) == title && strings.ToLower(title) != title
}

// skippedNotes says which rows were not imported and why, one note per
// reason.
func skippedNotes(skipped []SkippedRow) []string {
	var order []string
	byWhy := map[string][]SkippedRow{}
	for _, s := range skipped {
		if _, seen := byWhy[s.Why]; !seen {
			order = append(order, s.Why)
		}
		byWhy[s.Why] = append(byWhy[s.Why], s)
	}
	notes := make([]string, 0, len(order))
	for _, why := range order {
		rows := byWhy[why]
		lines := make([]int, len(rows))
		texts := make([]string, 0, 3)
		for i, r := range rows {
			lines[i] = r.Line
			if i < 3 {
				texts = append(texts, strconv.Quote(shorten(r.Text, 40)))
			}
		}
		if len(rows) > 3 {
			texts = append(texts, "…")
		}
		verb := "are"
		if len(rows) == 1 {
			verb = "is"
		}
		if why == whyNoNumber || why == whyEmptyHeading {
			notes = append(notes, fmt.Sprintf("%s (%s) %s not imported: %s", rowRanges(lines), strings.Join(texts, ", "), verb, why))
			continue
		}
		notes = append(notes, fmt.Sprintf("%s (%s) %s %s, not requests: not imported", rowRanges(lines), strings.Join(texts, ", "), verb, why))
	}
	return notes
}

func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
