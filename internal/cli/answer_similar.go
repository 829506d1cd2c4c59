package cli

import (
	"context"
	"fmt"
	"io"

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

// postingFlags are answer's flags that say what to post, which
// --similar, posting nothing, would silently ignore: given with it, they
// are a usage error (exit 2), so that no one believes a status moved or a
// note was kept internal. Cobra's MarkFlagsMutuallyExclusive says the
// rule (cmdutil.MarkFlagExcludes), and dealctl's check of flag groups
// words it, naming every one given at once and why.
var postingFlags = []string{"message", "file", "link", "partial", "kind", "internal", "no-status"}

// similarPostsNothing is why --similar excludes postingFlags.
const similarPostsNothing = "--similar shows the answers given to similar requests and posts nothing"

// answerSimilarRun is `answer REQUEST --similar`: the answers already
// given to requests close to this one (search.Similar, found as
// requests create finds them), read through the API, so only what the
// caller's side may see; nothing is posted.
func answerSimilarRun(ctx context.Context, o *AnswerOptions) error {
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
