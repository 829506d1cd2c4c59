package importplan

import (
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

// planAnswer gives it the sheet row's answer (the response column), for
// a request the row stands for: one to create, or the deal's own row.
// A row left alone on a number another row holds is another request, and
// a section has no answers: neither posts one, and a warning says so.
func (p *planner) planAnswer(r *sheets.Row, it *Item) {
	if r.Response == "" {
		return
	}
	switch {
	case it.Kind == api.KindSection:
		p.warn.add("answers that are not posted", "row %d: %s is a section, which takes no answer: its answer is not posted", r.Line, it.Number)
	case it.Action == ActionConflict && it.ConflictReason == ConflictNumberTaken:
		p.warn.add("answers that are not posted", "row %d: %s on the deal is another request: its answer is not posted", r.Line, it.Number)
	default:
		it.Answer = r.Response
	}
}

// SettleAnswers drops from the plan the answers the deal has already:
// imported holds, by the deal's request id, the texts of the messages
// with source import on it. An answer is the same when its text is, as
// the sheet reader reads a cell (sheets.Text: line breaks, surrounding
// blank space), so re-importing a sheet posts nothing twice, and an
// answer changed in the sheet since is posted as a new message. A row to
// create has no messages yet and keeps its answer.
func (pl *Plan) SettleAnswers(imported map[string][]string) {
	pl.Summary.Answers, pl.Summary.AnswersOnDeal = 0, 0
	for _, it := range pl.Items {
		if it.Answer == "" {
			continue
		}
		if it.ID != "" && postedAlready(imported[it.ID], it.Answer) {
			it.Answer = ""
			pl.Summary.AnswersOnDeal++
			continue
		}
		pl.Summary.Answers++
	}
}

func postedAlready(texts []string, answer string) bool {
	for _, t := range texts {
		if sheets.Text(t) == sheets.Text(answer) {
			return true
		}
	}
	return false
}

// AnswerRows are the deal rows (by id) whose imported messages
// SettleAnswers needs: those the plan would post an answer on. A row the
// list shows without a latest answer has no response at all, so none
// imported: it needs no read.
func (pl *Plan) AnswerRows() []string {
	var ids []string
	for _, it := range pl.Items {
		if it.Answer != "" && it.ID != "" && it.DealRow != nil && it.DealRow.LatestAnswer != nil {
			ids = append(ids, it.ID)
		}
	}
	return ids
}
