package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/english"
	"github.com/dealctl/dealctl/internal/importplan"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// Answers from a sheet (docs/spreadsheets.md, "Answers from a sheet"):
// the response column's new answers are posted as messages with source
// import, by an owning-party member, on a server that takes them
// (extension imported-answers).

// planAnswers settles the plan's answers against the deal: those an
// earlier import posted are dropped (the conversations of the rows that
// have answers are read for it), and the rest are refused where the
// caller may not post them, or left out with a warning where the server
// does not take them.
func planAnswers(ctx context.Context, o *ImportOptions, s *dealScope, plan *importplan.Plan) error {
	if plan.Summary.Answers == 0 {
		return nil
	}
	if !s.c.Supports(api.ExtImportedAnswers) {
		o.Warnf("this server does not take answers from a sheet (no imported-answers extension): the %d %s in %s %s not posted",
			plan.Summary.Answers, english.Plural(plan.Summary.Answers, "answer", "answers"), plan.Columns["response"],
			english.Plural(plan.Summary.Answers, "is", "are"))
		for _, it := range plan.Items {
			it.Answer = ""
		}
		plan.Summary.Answers = 0
		return nil
	}
	imported, err := importedAnswers(ctx, s, plan.AnswerRows())
	if err != nil {
		return err
	}
	plan.SettleAnswers(imported)
	if n := plan.Summary.Answers; n > 0 {
		if why := cannotCreate(ctx, s); why != "" {
			if !s.Deal.Archived {
				col := plan.Columns["response"]
				why = fmt.Sprintf("only admins and editors of the owning side may post a sheet's answers, and %d %s one in %s (without the %s column the rest can be imported)",
					n, english.Plural(n, "row has", "rows have"), col, col)
			}
			plan.Forbidden = append(plan.Forbidden, why)
		}
	}
	return nil
}

// importedAnswers reads the conversations of the rows ids names, a few
// at once, and returns the texts of their messages with source import.
func importedAnswers(ctx context.Context, s *dealScope, ids []string) (map[string][]string, error) {
	var mu sync.Mutex
	out := map[string][]string{}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(importWorkers)
	for _, id := range ids {
		g.Go(func() error {
			msgs, err := s.c.Messages(gctx, s.Deal.ID, id)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			for _, m := range msgs {
				if m.Source == api.SourceImport {
					out[id] = append(out[id], m.Text)
				}
			}
			return nil
		})
	}
	return out, g.Wait()
}

// reportAnswers lists the answers a run posts, on stderr, one line each.
func reportAnswers(e cmdEnv, plan *importplan.Plan) {
	if plan.Summary.Answers == 0 {
		return
	}
	e.Infof("Answers to post from %s (shown as imported on both sides):", plan.Columns["response"])
	for _, it := range plan.Items {
		if it.Answer != "" {
			e.Infof("  row %d, %s: %s", it.Row, termsafe.Line(it.Number), termsafe.OneLine(it.Answer, 80))
		}
	}
}

// postAnswers posts the plan's answers once every row exists, as
// messages with source import that leave the status alone (the sheet's
// Status column moves it, with --apply-status). Each carries an
// Idempotency-Key derived from the deal, the request and the text, so
// that a re-run after a lost answer replays instead of posting twice.
func (a *applier) postAnswers(ctx context.Context, plan *importplan.Plan) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(importWorkers)
	for _, it := range plan.Items {
		if it.Answer == "" || it.AnswerPosted {
			continue
		}
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if err := a.postAnswer(gctx, it); err != nil {
				return fmt.Errorf("row %d (%s), its answer: %w", it.Row, it.Number, err)
			}
			a.finished(func() { it.AnswerPosted = true })
			return nil
		})
	}
	return waitApplied(ctx, g)
}

func (a *applier) postAnswer(ctx context.Context, it *importplan.Item) error {
	if it.ID == "" {
		return fmt.Errorf("the row was not created")
	}
	ctx = client.WithIdempotencyKey(ctx, answerKey(a.dealID, it.ID, it.Answer))
	if err := a.pace.wait(ctx); err != nil {
		return err
	}
	_, err := a.c.PostMessage(ctx, a.dealID, it.ID, api.MessageCreate{
		Text: api.Some(it.Answer), Source: api.Some(api.SourceImport), UpdateStatus: api.Some(false),
	})
	a.pace.done(nil) // its answer's headers reached the pacer through the client's observer
	return err
}

// answerKey is the Idempotency-Key of one imported answer.
func answerKey(dealID, requestID, text string) string {
	h := sha256.New()
	for _, part := range []string{dealID, requestID, text} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return "dealctl-import-answer-" + hex.EncodeToString(h.Sum(nil))[:40]
}

// answersChange is how a row's answer shows in the plan's CHANGES.
func answersChange(it *importplan.Item, changes string) string {
	if it.Answer == "" {
		return changes
	}
	return strings.TrimPrefix(changes+",answer", ",")
}
