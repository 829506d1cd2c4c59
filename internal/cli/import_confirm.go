package cli

import (
	"fmt"
	"strings"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/english"
	"github.com/dealctl/dealctl/internal/importplan"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// overwritesByNumber reports whether an item overwrites a deal row that it matched
// by number (--match number), not by the deal's own ID.
func overwritesByNumber(it *importplan.Item) bool {
	return it.HasWrite() && it.Action != importplan.ActionCreate &&
		(it.MatchedBy == importplan.MatchedByNumber || it.MatchedBy == importplan.MatchedByTitle)
}

// reportChanges prints, on stderr, every field each row matched by
// number would change, old → new: titles in full, a body in full or, when
// long, as a line diff. These are the writes a person must be able to
// read before they happen.
func reportChanges(e cmdEnv, plan *importplan.Plan) {
	for _, it := range plan.Items {
		if !overwritesByNumber(it) {
			continue
		}
		e.Infof("row %d, %s (matched by number):", it.Row, it.Number)
		for _, d := range it.Diffs {
			for _, l := range fieldChangeLines(d) {
				e.Infof("  %s", termsafe.Line(l))
			}
		}
	}
}

// fieldChangeLines shows one change: `title: "old" → "new"` on one line
// when both sides are short single lines, else the field's name and a
// line diff of the two texts.
func fieldChangeLines(d importplan.FieldChange) []string {
	short := func(s string) bool { return !strings.Contains(s, "\n") && len([]rune(s)) <= 100 }
	if d.Field != "body" || (short(d.From) && short(d.To)) {
		return []string{fmt.Sprintf("%s: %s → %s", d.Field, fullValue(d.From), fullValue(d.To))}
	}
	lines := []string{d.Field + ":"}
	for _, l := range lineDiff(d.From, d.To) {
		lines = append(lines, "  "+l)
	}
	return lines
}

// fullValue quotes a value in full (quoteValue cuts long ones).
func fullValue(v string) string {
	if v == "" {
		return "(blank)"
	}
	return fmt.Sprintf("%q", v)
}

// lineDiff is a line diff of two texts, "- " for a line only in a, "+ "
// for one only in b, "  " for one in both; a run of more than three
// lines in both keeps its first and last. Bodies are short enough (the API's
// limit) for the longest common subsequence to be computed whole.
func lineDiff(a, b string) []string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out, same []string
	flush := func() {
		if n := len(same); n > 3 {
			same = []string{same[0], fmt.Sprintf("  … %d unchanged lines", n-2), same[n-1]}
		}
		out, same = append(out, same...), nil
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			same = append(same, "  "+x[i])
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			flush()
			out = append(out, "- "+x[i])
			i++
		default:
			flush()
			out = append(out, "+ "+y[j])
			j++
		}
	}
	flush()
	return out
}

// confirmByNumber asks before a run overwrites rows it matched by number:
// on a terminal, after showing each change; without one, only --yes
// lets it go ahead (and the changes are still shown). nil means go
// ahead; any answer but y or yes writes nothing (exit 1).
func (o *ImportOptions) confirmByNumber(plan *importplan.Plan) error {
	n := plan.Summary.ByNumber
	if n == 0 {
		return nil
	}
	if o.Yes {
		if !o.Printer().Machine() {
			reportChanges(o.cmdEnv, plan) // what --yes agreed to, on record in the run's output
		}
		return nil
	}
	rows := english.Plural(n, "row", "rows")
	if !o.IO.CanPrompt() {
		return cmdutil.UsageErrorf("--match number would overwrite %d %s of the deal by number, and there is no terminal to ask: nothing was written; pass --yes to write them, or --dry-run to see each change", n, rows)
	}
	reportChanges(o.cmdEnv, plan)
	ok, err := askYes(o.IO, fmt.Sprintf("Overwrite %d %s of the deal matched by number, as shown above?", n, rows))
	if err != nil || ok {
		return err
	}
	return cmdutil.WithExit(cmdutil.ExitFailure, fmt.Errorf("nothing was written"))
}
