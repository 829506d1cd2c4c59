package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// maxSimilarAnswered is how many similar requests answer --similar
// reads the conversations of.
const maxSimilarAnswered = 5

// similarAnswers is one similar request with the answers given on it,
// as answer --similar prints them (-o json).
type similarAnswers struct {
	Request    api.DealRequest `json:"request"`
	Similarity float64         `json:"similarity"`
	Answers    []api.Message   `json:"answers"`
}

// postingFlags are the flags given among those that say what to post,
// which --similar, posting nothing, would silently ignore.
func postingFlags(set map[string]bool) []string {
	var given []string
	for _, name := range []string{"message", "file", "link", "partial", "kind", "internal", "no-status"} {
		if set[name] {
			given = append(given, "--"+name)
		}
	}
	return given
}

// answerSimilarRun is `answer REQUEST --similar`: the answers already
// given to requests close to this one (search.Similar, found as
// requests create finds them), read through the API, so only what the
// caller's side may see; nothing is posted.
func answerSimilarRun(ctx context.Context, o *AnswerOptions) error {
	if given := postingFlags(o.Set); len(given) > 0 {
		return cmdutil.UsageErrorf("--similar shows the answers given to similar requests and posts nothing: leave out %s, or leave out --similar to post", strings.Join(given, ", "))
	}
	s, r, err := o.openRequest(ctx, o.Ref)
	if err != nil {
		return err
	}
	if r.Kind == api.KindSection {
		// A section has no answers and its title alone finds little:
		// said as answer says it, not as "no request like it".
		return cmdutil.UsageErrorf("%s is a section: give one of its requests to see the answers given to requests like it", r.Number)
	}
	similar, err := askedBefore(ctx, s, r.Title, r.Body)
	if err != nil {
		return err
	}
	out := []similarAnswers{}
	for _, sim := range similar {
		if sim.ID == r.ID {
			continue
		}
		if len(out) == maxSimilarAnswered {
			break
		}
		msgs, err := s.c.Messages(ctx, s.Deal.ID, sim.ID)
		if err != nil {
			return err
		}
		answered := similarAnswers{Request: sim.DealRequest, Similarity: sim.score, Answers: []api.Message{}}
		for _, m := range msgs {
			if m.Kind == api.MessageResponse {
				answered.Answers = append(answered.Answers, m)
			}
		}
		if len(answered.Answers) > 0 {
			out = append(out, answered)
		}
	}
	p := o.Printer()
	return p.Print(output.View{Data: out, Human: func(w io.Writer) error {
		if len(out) == 0 {
			o.Infof("No request like %s has an answer you can see", r.Number)
			return nil
		}
		for i, sa := range output.SafeCopy(out) {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "%s %s %s\n", p.Theme.Bold(sa.Request.Number), sa.Request.Title, p.Theme.Dim(fmt.Sprintf("(%.0f%% alike)", 100*sa.Similarity)))
			for _, m := range sa.Answers {
				writeMessage(ctx, w, &m, p.Theme, nil)
			}
		}
		return nil
	}})
}
