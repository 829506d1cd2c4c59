package sheets

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/dealctl/dealctl/internal/domain"
)

// idPattern is a data room's question id: a short prefix and a
// zero-padded or separated count (Q-0001, REQ_12, DD-007, Q0001).
var idPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z]{1,4})([-_ ]?)(\d{1,6})$`)
})

// looksLikeListNumber reports whether a cell reads as a list's number:
// 1, 2.3, A.1, IV, 7. or a data room's id such as Q-0001.
func looksLikeListNumber(cell string) bool {
	cell = strings.TrimSpace(cell)
	if cell == "" {
		return false
	}
	if headingPatterns().numberLike.MatchString(cell) {
		return strings.ContainsAny(cell, "0123456789") || isRoman(strings.TrimSuffix(cell, "."))
	}
	return idPattern().MatchString(cell)
}

// romanPattern is a Roman numeral in capitals, I to XXXIX: section
// numbers, not words.
var romanPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^X{0,3}(IX|IV|V?I{0,3})$`) })

func isRoman(s string) bool { return s != "" && romanPattern().MatchString(s) }

// unmappedNumberColumn finds, in a sheet without a number column, a
// column whose cells are the rows' numbers under a header dealctl does not
// know ("Pos.", "Seq."): read without it the list would lose its
// numbers and sections, so the sheet stops with the --map that reads it.
func unmappedNumberColumn(grid [][]string, headerLine int, m Mapping, hidden func(int) bool) *Problem {
	if m.Has(FieldNumber) {
		return nil
	}
	title := m.Index[FieldTitle]
	width := 0
	for i := headerLine; i < len(grid); i++ {
		width = max(width, len(grid[i]))
	}
	for j := 0; j < width; j++ {
		if mappedColumn(m, j) {
			continue
		}
		titled, numbers := 0, []string{}
		for i := headerLine; i < len(grid); i++ {
			if hidden(i) || strings.TrimSpace(cellAt(grid[i], title)) == "" {
				continue
			}
			titled++
			if c := strings.TrimSpace(cellAt(grid[i], j)); looksLikeListNumber(c) {
				numbers = append(numbers, c)
			}
		}
		if len(numbers) < 2 || 2*len(numbers) < titled || !runsLikeNumbers(numbers) {
			continue
		}
		name := OneLine(cellAt(grid[headerLine-1], j))
		shown := fmt.Sprintf("%q (column %s)", printable(name), columnLetter(j))
		if name == "" {
			name, shown = columnLetter(j), "column "+columnLetter(j)
		}
		eg := make([]string, 0, 3)
		for _, n := range numbers[:min(3, len(numbers))] {
			eg = append(eg, strconv.Quote(n))
		}
		return &Problem{Line: headerLine, Column: printable(name), Field: FieldNumber,
			Message: fmt.Sprintf("%s holds numbers such as %s, but dealctl does not know its header, so the list would be read without its numbers and sections: "+
				"read it as the numbers with --map number=%s (or name the column Number)", shown, strings.Join(eg, ", "), mapArg(name))}
	}
	return nil
}

// runsLikeNumbers tells a list's numbers from other numbers (days open,
// a year, an amount): nearly all distinct, and either outlined (2.3, A.1,
// Q-0001) or mostly rising, row after row.
func runsLikeNumbers(cells []string) bool {
	distinct := map[string]bool{}
	outlined, rising := false, 0
	for i, c := range cells {
		distinct[c] = true
		if !isAllDigits(c) {
			outlined = true
		}
		if i > 0 && domain.CompareNumbers(cells[i-1], c) < 0 {
			rising++
		}
	}
	if 10*len(distinct) < 9*len(cells) {
		return false
	}
	return outlined || 10*rising >= 7*(len(cells)-1)
}

// readIDNumbers reads a data room's question ids as numbers: when every
// numbered row's number is one prefix and a count marked as an id (by a
// separator or zeros: Q-0001, Q0001), the count is the number (Q-0007 is
// 7 whatever row it is on, so a second export reads the same), and a note
// says so. A1, A2 (a lettered section's rows) and numbers that do not all
// share one prefix are left as they are.
func readIDNumbers(rows []Row, column string) string {
	var ids [][]string // the matches, in row order
	for _, r := range rows {
		if r.Number == "" {
			continue
		}
		m := idPattern().FindStringSubmatch(r.Number)
		if m == nil || (len(ids) > 0 && !strings.EqualFold(m[1], ids[0][1])) || (m[2] == "" && !strings.HasPrefix(m[3], "0")) {
			return ""
		}
		ids = append(ids, m)
	}
	if len(ids) == 0 {
		return ""
	}
	count := func(m []string) string { n, _ := strconv.Atoi(m[3]); return strconv.Itoa(n) }
	for i := range rows {
		if m := idPattern().FindStringSubmatch(rows[i].Number); m != nil {
			rows[i].Number = count(m)
		}
	}
	first, last := ids[0], ids[len(ids)-1]
	return fmt.Sprintf("the %s column holds a data room's ids (%s … %s): read as the numbers %s … %s, without the %q prefix",
		column, first[0], last[0], count(first), count(last), first[1]+first[2])
}

// formulasWithoutValues finds the number and title cells that read blank
// because they are formulas saved without their values (a file written
// by a tool that computes none): one problem per column, naming the
// cause, rather than rows without numbers or titles.
func formulasWithoutValues(rows []Row, m Mapping, formula func(row, col int) string) []Problem {
	if formula == nil {
		return nil
	}
	var problems []Problem
	for _, f := range []Field{FieldNumber, FieldTitle} {
		j, ok := m.Index[f]
		if !ok {
			continue
		}
		var lines []int
		eg := ""
		for _, r := range rows {
			blank := (f == FieldNumber && r.Number == "") || (f == FieldTitle && r.Title == "")
			if !blank {
				continue
			}
			if fx := formula(r.Line-1, j); fx != "" {
				lines = append(lines, r.Line)
				if eg == "" {
					eg = fx
				}
			}
		}
		if len(lines) == 0 {
			continue
		}
		problems = append(problems, Problem{Line: lines[0], Column: m.Headers[f], Field: f, Rows: manyRows(lines),
			Message: fmt.Sprintf("the %s column's cells on %s are formulas (=%s) saved without their values: the tool that wrote the file computes none, so there is nothing to read. "+
				"Open the file in Excel or LibreOffice and save it (that stores the values), or paste the column as values, and import again",
				m.Headers[f], rowRanges(lines), eg)})
	}
	return problems
}
