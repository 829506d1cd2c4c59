package cli

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/importplan"
	"github.com/dealctl/dealctl/internal/sheets"
)

// importCommand is this import's command line, as the user can paste it,
// with extra flags added: the deal named (however this run found it),
// the reading and matching flags carried over, the dry run and the
// output format left out.
func (o *ImportOptions) importCommand(deal, under string, extra ...string) string {
	args := []string{"dealctl", "import", cmdutil.ShellQuote(o.File)}
	if deal != "" {
		args = append(args, "--deal", cmdutil.ShellQuote(deal))
	}
	flag := func(name, value string) {
		if value != "" {
			args = append(args, name, cmdutil.ShellQuote(value))
		}
	}
	flag("--sheet", o.Sheet)
	flag("--encoding", o.Encoding)
	flag("--date-order", o.DateOrder)
	for _, m := range o.Maps {
		flag("--map", m)
	}
	for _, f := range []struct {
		name string
		on   bool
	}{{"--apply-status", o.ApplyStatus}, {"--clear-blanks", o.ClearBlanks}, {"--overwrite", o.Overwrite}} {
		if f.on {
			args = append(args, f.name)
		}
	}
	flag("--under", under)
	return strings.Join(append(args, extra...), " ")
}

// waysThrough are the commands that import the rows that collided with
// other rows of the deal on their numbers. Each is offered only where it
// then succeeds: --renumber and a new section need a caller who may
// create rows; a new section only where this run wrote nothing (else its
// rows would be created twice) and no row is the deal's by ID;
// --match number only where every collision is a row of other content
// (not another kind), nothing else conflicts, and the caller may edit
// those rows.
func (o *ImportOptions) waysThrough(sheet *sheets.Sheet, plan *importplan.Plan, current []api.DealRequest, mayCreate bool) []string {
	if len(plan.Collisions) == 0 || !onlyCollisions(sheet, plan) {
		return nil
	}
	var ways []string
	if mayCreate {
		ways = append(ways, o.importCommand(plan.Deal, o.Under, "--renumber")+"   # each colliding row takes the next free number of its section")
		wrote := plan.Applied && plan.Summary.Create+plan.Summary.Update+plan.Summary.StatusMoves > 0
		if !wrote && !hasIDMatches(plan) && selfContained(sheet) {
			n := nextTopNumber(current)
			title := "From " + filepath.Base(o.File)
			create := "dealctl requests create --kind section --number " + n + " --title " + cmdutil.ShellQuote(title)
			if plan.Deal != "" {
				create += " --deal " + cmdutil.ShellQuote(plan.Deal)
			}
			ways = append(ways, create+" && "+o.importCommand(plan.Deal, n)+"   # the whole sheet under a new section "+n)
		}
	}
	if plan.Summary.NumberTaken == len(plan.Collisions) && plan.Summary.Conflicts == plan.Summary.NumberTaken && mayEditAll(plan, current) {
		ways = append(ways, o.importCommand(plan.Deal, o.Under, "--match", "number", "--dry-run")+"   # if they are the deal's own rows: shows each change; then run it without --dry-run")
	}
	return ways
}

// reportWays prints the ways through on stderr, one command a line.
func reportWays(e cmdEnv, ways []string) {
	if len(ways) == 0 {
		return
	}
	e.Infof("ways through:")
	for _, w := range ways {
		e.Infof("  %s", w)
	}
}

// onlyCollisions reports whether every problem is a row's collision with
// the deal: a sheet with problems of its own is fixed first, as no flag
// gets it through.
func onlyCollisions(sheet *sheets.Sheet, plan *importplan.Plan) bool {
	if len(sheet.Problems) > 0 {
		return false
	}
	for _, pr := range plan.Problems {
		if !slices.Contains(plan.Collisions, pr.Line) || len(pr.Rows) > 0 {
			return false
		}
	}
	return true
}

// selfContained reports whether every row's section is a row of the
// sheet: only then can the sheet go under a new section whole (a row
// under one of the deal's sections would be under nothing there).
func selfContained(sheet *sheets.Sheet) bool {
	for _, r := range sheet.Rows {
		if r.Parent != "" && r.ParentLine == 0 {
			return false
		}
	}
	return true
}

func hasIDMatches(plan *importplan.Plan) bool {
	for _, it := range plan.Items {
		if it.MatchedBy == importplan.MatchedByID {
			return true
		}
	}
	return false
}

// nextTopNumber is the number the server gives a new top-level row.
func nextTopNumber(current []api.DealRequest) string {
	var tops []string
	for _, r := range current {
		if domain.ParentNumber(r.Number) == "" {
			tops = append(tops, r.Number)
		}
	}
	return domain.NextNumber("", tops)
}

// mayEditAll reports whether the caller may edit (and assign) every deal
// row the plan left alone.
func mayEditAll(plan *importplan.Plan, current []api.DealRequest) bool {
	can := map[string]bool{}
	for _, r := range current {
		can[r.Number] = r.Can.Edit && (r.Kind == api.KindSection || r.Can.Assign)
	}
	for _, c := range plan.Conflicts {
		if !can[c.Number] {
			return false
		}
	}
	return true
}
