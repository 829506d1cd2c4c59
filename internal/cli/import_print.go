package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/english"
	"github.com/dealctl/dealctl/internal/importplan"
)

// planTable lists the plan: on a terminal only the rows that change or
// are left alone as conflicts, since the unchanged ones are counted in the
// summary line; piped, every row.
func planTable(plan *importplan.Plan, tty bool) *output.Table {
	t := &output.Table{Columns: []output.Column{
		{Header: "ROW"}, {Header: "ACTION"}, {Header: "NUMBER", Color: display.CyanColumn}, {Header: "KIND"},
		{Header: "TITLE", Flex: true}, {Header: "CHANGES"},
	}}
	for _, it := range plan.Items {
		if tty && it.Action == importplan.ActionUnchanged && it.Answer == "" {
			continue
		}
		changes := strings.Join(it.Changes, ",")
		if it.StatusTo != "" {
			changes = strings.TrimPrefix(changes+",status→"+string(it.StatusTo), ",")
		}
		if len(it.Conflicts) > 0 {
			changes = "kept the deal's " + strings.Join(it.Conflicts, ",")
		}
		if len(it.Kept) > 0 {
			changes = strings.TrimPrefix(changes+"; blank kept: "+strings.Join(it.Kept, ","), "; ")
		}
		changes = answersChange(it, changes)
		t.AddRow(itoa(it.Row), it.Action, it.Number, string(it.Kind), it.Title, changes)
	}
	return t
}

// planSentence sums a plan up in one line, as a plan (dry run) or as
// what was done.
func planSentence(plan *importplan.Plan, dryRun bool) string {
	s := plan.Summary
	head, parts := "", []string{
		fmt.Sprintf("%d created", s.Create), fmt.Sprintf("%d updated", s.Update), fmt.Sprintf("%d unchanged", s.Unchanged),
	}
	if dryRun {
		head = "plan: "
		parts = []string{
			fmt.Sprintf("%d to create", s.Create), fmt.Sprintf("%d to update", s.Update), fmt.Sprintf("%d unchanged", s.Unchanged),
		}
	}
	if s.StatusMoves > 0 {
		parts = append(parts, fmt.Sprintf("%d status %s", s.StatusMoves, english.Plural(s.StatusMoves, "move", "moves")))
	}
	if s.Answers > 0 {
		verb := "posted"
		if dryRun {
			verb = "to post"
		}
		parts = append(parts, fmt.Sprintf("%d %s %s", s.Answers, english.Plural(s.Answers, "answer", "answers"), verb))
	}
	if s.AnswersOnDeal > 0 {
		parts = append(parts, fmt.Sprintf("%d %s on the deal already", s.AnswersOnDeal, english.Plural(s.AnswersOnDeal, "answer", "answers")))
	}
	if s.Conflicts > 0 {
		parts = append(parts, fmt.Sprintf("%d left alone as %s", s.Conflicts, english.Plural(s.Conflicts, "a conflict", "conflicts")))
	}
	line := fmt.Sprintf("%s → %s: %s%s", plan.File, plan.Deal, head, strings.Join(parts, ", "))
	if len(plan.Absent) > 0 {
		nums := make([]string, 0, 11)
		for i, a := range plan.Absent {
			if i == 10 {
				nums = append(nums, "…")
				break
			}
			nums = append(nums, a.Number)
		}
		line += fmt.Sprintf("; %d %s of the deal not in the sheet, kept as %s: %s", len(plan.Absent),
			english.Plural(len(plan.Absent), "row", "rows"), english.Plural(len(plan.Absent), "it is", "they are"), strings.Join(nums, ", "))
	}
	return line
}

// progressBar draws "[#####.....] 120/700" on stderr while an import
// writes, when stderr is a terminal.
type progressBar struct {
	w     io.Writer
	total int
	mu    sync.Mutex
	n     int
	quit  chan struct{}
	wg    sync.WaitGroup
}

func startProgress(w io.Writer, show bool, total int) *progressBar {
	b := &progressBar{w: w, total: total}
	if !show {
		return b
	}
	b.quit = make(chan struct{})
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-b.quit:
				b.draw()
				fmt.Fprintln(b.w)
				return
			case <-t.C:
				b.draw()
			}
		}
	}()
	return b
}

func (b *progressBar) step() {
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
}

func (b *progressBar) draw() {
	b.mu.Lock()
	n := b.n
	b.mu.Unlock()
	const width = 30
	filled := width * n / max(b.total, 1)
	fmt.Fprintf(b.w, "\rimporting [%s%s] %d/%d", strings.Repeat("#", filled), strings.Repeat(".", width-filled), n, b.total)
}

func (b *progressBar) stop() {
	if b.quit == nil {
		return
	}
	close(b.quit)
	b.wg.Wait()
}
