package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/english"
	"github.com/dealctl/dealctl/internal/importplan"
)

// reportConflicts lists, on stderr, every field of every row left alone:
// changed on the deal after the sheet's Updated, or another row of the
// deal on the row's number, with the deal's text beside the sheet's.
func reportConflicts(e cmdEnv, plan *importplan.Plan) {
	row := 0
	for _, c := range plan.Conflicts {
		if c.Reason == importplan.ConflictChangedSince {
			e.Warnf("row %d, %s %s: kept the deal's %s (changed on the deal %s, after the sheet's %s); the sheet has %s",
				c.Row, c.Number, c.Field, quoteValue(c.Server), c.ServerUpdated.Format(time.RFC3339), c.SheetUpdated.Format(time.RFC3339), quoteValue(c.Sheet))
			continue
		}
		if c.Row != row {
			row = c.Row
			e.Warnf("row %d, %s is on the deal with other content, left alone (a row without this deal's ID only creates; --match number would overwrite it):", c.Row, c.Number)
		}
		e.Infof("  %s: deal %s, sheet %s", c.Field, quoteValue(c.Server), quoteValue(c.Sheet))
	}
}

// quoteValue shows a value from either side safely on one line: quoted
// and escaped, so a cell cannot move the cursor or fake a line.
func quoteValue(v string) string {
	if v == "" {
		return "(blank)"
	}
	if len([]rune(v)) > 80 {
		v = string([]rune(v)[:79]) + "…"
	}
	return fmt.Sprintf("%q", v)
}

// conflictError is exit 5 when rows were left alone, nil otherwise.
func conflictError(plan *importplan.Plan) error {
	n := plan.Summary.Conflicts
	if n == 0 {
		return nil
	}
	done := "the rest was imported"
	if plan.DryRun {
		done = "the rest would be imported"
	}
	var why []string
	if taken := plan.Summary.NumberTaken; taken > 0 {
		why = append(why, fmt.Sprintf("%d %s on the deal with other content (listed above)",
			taken, english.Plural(taken, "row's number is", "rows' numbers are")))
	}
	if stale := n - plan.Summary.NumberTaken; stale > 0 {
		why = append(why, fmt.Sprintf("%d changed on the deal after the sheet's Updated time (listed above): export again to start from the deal's current list, or run again with --overwrite to take the sheet's values", stale))
	}
	return cmdutil.WithExit(cmdutil.ExitConflict, fmt.Errorf("%d %s left alone: %s; %s",
		n, english.Plural(n, "row was", "rows were"), strings.Join(why, "; "), done))
}

// underError maps an --under the deal has no section for: exit 3 when
// there is no such row, exit 2 when it is a request.
func underError(err error) error {
	var ue *importplan.UnderError
	if errors.As(err, &ue) && ue.NotFound {
		return cmdutil.WithExit(cmdutil.ExitNotFound, err)
	}
	return cmdutil.WithExit(cmdutil.ExitUsage, err)
}
