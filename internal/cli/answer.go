package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/domain"
)

// AnswerOptions are `answer`'s inputs.
type AnswerOptions struct {
	cmdEnv
	Ref      string
	Message  string
	File     string
	Partial  bool
	Kind     string
	Internal bool
	NoStatus bool
	Links    []string
	Similar  bool // show the answers given to similar requests; post nothing
	Set      map[string]bool
	// Edit opens $EDITOR on a terminal when no text was given, on a draft
	// headed by what is being answered.
	Edit func(about string) (*answerDraft, error)
}

// NewCmdAnswer is `dealctl answer REQUEST`.
func NewCmdAnswer(f *Factory) *cobra.Command {
	opts := &AnswerOptions{cmdEnv: f.env(), Edit: editText}
	cmd := &cobra.Command{
		Use:   "answer REQUEST [-m TEXT | -F FILE]",
		Short: "Post an answer, question, reference or internal note on a request",
		Long: `Posts a message on a request and prints it with the request's new status.

The text comes from -m, from -F FILE (- for stdin), or, on a terminal with
neither, from $EDITOR, opened once the request is found: lines starting
with "# dealctl:" are dropped (Markdown headings stay), and if posting
fails the text is kept in a file, with the command that posts it. A response completes the request, or moves it to
partial with --partial; --no-status leaves the status alone. Links are
given as --link URL or --link URL=LABEL, repeatably (a URL with a query
takes its label after the last parameter: https://x/?a=b=Label).

--similar posts nothing: it shows the answers already given to requests
like this one (found as requests create finds them: docs/decisions.md,
"Search"), as far as your side may see them.`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRequests(f, api.KindRequest),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			opts.Set = changedFlags(cmd)
			return answerRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.Message, "message", "m", "", "the text, Markdown")
	fl.StringVarP(&opts.File, "file", "F", "", "read the text from FILE (- for stdin)")
	fl.BoolVar(&opts.Partial, "partial", false, "a partial answer: more is to come")
	fl.StringVar(&opts.Kind, "kind", "", "response (default), question, reference or internal_note")
	fl.BoolVar(&opts.Internal, "internal", false, "keep it to your side")
	fl.BoolVar(&opts.NoStatus, "no-status", false, "leave the request's status as it is")
	fl.StringArrayVar(&opts.Links, "link", nil, "attach a link: URL or URL=LABEL (repeatable)")
	fl.BoolVar(&opts.Similar, "similar", false, "show the answers given to similar requests instead of posting")
	cmd.MarkFlagsMutuallyExclusive("message", "file")
	cmdutil.MarkFlagExcludes(cmd, "similar", similarPostsNothing, postingFlags...)
	_ = cmd.RegisterFlagCompletionFunc("kind", enumCompletion(api.MessageKinds))
	return cmd
}

// answerResult is what -o json prints.
type answerResult struct {
	Message *api.Message     `json:"message"`
	Request *api.DealRequest `json:"request"`
}

func answerRun(ctx context.Context, o *AnswerOptions) error {
	if o.Similar {
		return answerSimilarRun(ctx, o)
	}
	in, err := o.messageOptions()
	if err != nil {
		return err
	}
	hasLinks := in.Links.Set
	text, edit, err := o.givenText(hasLinks)
	if err != nil {
		return err
	}
	if !edit && strings.TrimSpace(text) == "" && !hasLinks {
		return cmdutil.UsageErrorf("the message is empty: nothing was posted")
	}

	// The request is found before any editor opens, so a wrong number, a
	// deal out of reach or a server that is down costs no typing.
	s, r, err := o.openRequest(ctx, o.Ref)
	if err != nil {
		return err
	}
	if r.Kind == api.KindSection {
		return cmdutil.UsageErrorf("%s is a section: answer one of its requests", r.Number)
	}
	var draft *answerDraft
	if edit {
		if draft, err = o.editDraft(s, r); err != nil {
			return err
		}
		text = draft.Text
		if text == "" && !hasLinks {
			draft.discard()
			return cmdutil.UsageErrorf("the message is empty: nothing was posted")
		}
	}
	if text != "" {
		in.Text = api.Some(text)
	}
	msg, err := o.post(ctx, s, r, in, draft)
	if err != nil {
		return err
	}
	p := o.Printer()
	// r is current (from the list just read or confirmed), so the rule
	// the server moves the status by tells where the answer left it.
	moved := domain.RequestAfterAnswer(r, msg, in)
	after := &moved
	if p.Machine() {
		// -o json prints the request as the server now has it, as it
		// always has; a person is told where its status landed without
		// that extra read.
		if after, err = s.c.Request(ctx, s.Deal.ID, r.ID); err != nil {
			return err
		}
	}
	return printWrite(o.cmdEnv, answerResult{Message: msg, Request: after}, after, func(w io.Writer, th *display.Theme) error {
		safeMsg, safeAfter := output.SafeCopy(*msg), output.SafeCopy(*after)
		writeMessage(ctx, w, &safeMsg, th, nil)
		_, err := fmt.Fprintln(w, statusAfterAnswer(r, &safeAfter, th))
		return err
	})
}

// post sends the message. A draft from the editor is removed once
// posted, and kept, with the command that posts it, when posting fails.
func (o *AnswerOptions) post(ctx context.Context, s *dealScope, r *api.DealRequest, in api.MessageCreate, draft *answerDraft) (*api.Message, error) {
	msg, err := s.c.PostMessage(ctx, s.Deal.ID, r.ID, in)
	if draft == nil {
		return msg, err
	}
	if err != nil {
		return nil, draft.keep(err, retryAnswerCommand(o, draft.Path))
	}
	draft.discard()
	return msg, nil
}

// statusAfterAnswer says where the answer left the request's status:
// where it moved, or that it did not (a question, an internal note,
// --no-status, or a move the caller's side may not make).
func statusAfterAnswer(before, after *api.DealRequest, th *display.Theme) string {
	if before.Status != after.Status {
		return fmt.Sprintf("%s is now %s", after.Number, th.Status(string(after.Status)))
	}
	return fmt.Sprintf("%s: status unchanged (%s)", after.Number, th.Status(string(after.Status)))
}

// messageOptions reads the flags other than the text into the message to
// post.
func (o *AnswerOptions) messageOptions() (api.MessageCreate, error) {
	in := api.MessageCreate{}
	if o.Set["kind"] {
		k, err := parseEnum("--kind", o.Kind, api.MessageKinds)
		if err != nil {
			return in, err
		}
		in.Kind = api.Some(k)
	}
	if err := o.checkPartial(); err != nil {
		return in, err
	}
	if o.Partial {
		in.Partial = api.Some(true)
	}
	if o.Internal {
		in.Internal = api.Some(true)
	}
	if o.NoStatus {
		in.UpdateStatus = api.Some(false)
	}
	var links []api.Link
	for _, l := range o.Links {
		link, err := parseLink(l)
		if err != nil {
			return in, err
		}
		links = append(links, link)
	}
	if len(links) > api.MaxLinks {
		return in, cmdutil.UsageErrorf("%d links given: at most %d per message", len(links), api.MaxLinks)
	}
	if links != nil {
		in.Links = api.Some(links)
	}
	return in, nil
}

// checkPartial refuses --partial where it cannot do what it says (move
// the request to partial): with --no-status, or on a message that is not
// a response.
func (o *AnswerOptions) checkPartial() error {
	switch {
	case !o.Partial:
		return nil
	case o.NoStatus:
		return cmdutil.UsageErrorf("--partial moves the request to partial and --no-status leaves its status alone: give one of them")
	case o.Set["kind"] && !strings.EqualFold(o.Kind, string(api.MessageResponse)):
		return cmdutil.UsageErrorf("--partial applies to a response, not to --kind %s: drop --partial, or --kind", o.Kind)
	}
	return nil
}

// givenText is the text of -m or -F. edit is true when there is none and
// $EDITOR is to be opened: on a terminal, unless links alone are the
// message.
func (o *AnswerOptions) givenText(hasLinks bool) (text string, edit bool, err error) {
	switch {
	case o.Set["message"]:
		return o.Message, false, nil
	case o.Set["file"]:
		t, _, err := readBody(o.IO.In, "", o.File, false, true)
		return t, false, err
	case hasLinks:
		return "", false, nil
	case o.IO.CanPrompt():
		return "", true, nil
	}
	return "", false, cmdutil.UsageErrorf("no text: give -m TEXT or -F FILE (there is no terminal for an editor)")
}

// editDraft opens the editor for an answer to r, once it is known that
// the caller may post there: the server's can.answer is false for a
// read-only key, a viewer and an archived deal.
func (o *AnswerOptions) editDraft(s *dealScope, r *api.DealRequest) (*answerDraft, error) {
	if !r.Can.Answer {
		return nil, cmdutil.WithExit(cmdutil.ExitAuth, fmt.Errorf("you cannot post on %s (a read-only key, a viewer's seat, or an archived deal): the editor was not opened; see 'dealctl whoami' and 'dealctl deals show'", r.Number))
	}
	d, err := o.Edit(fmt.Sprintf("Answering %s %q on %s.", r.Number, r.Title, s.Deal.Codename))
	if err != nil {
		if d != nil {
			return nil, d.keep(err, retryAnswerCommand(o, d.Path))
		}
		return nil, err
	}
	return d, nil
}

// parseLink reads URL or URL=LABEL. A URL's own query holds "=", so with
// a "?" the label is what follows a second "=" in the last parameter.
func parseLink(v string) (api.Link, error) {
	v = strings.TrimSpace(v)
	url, label := v, ""
	if q := strings.Index(v, "?"); q < 0 {
		if i := strings.Index(v, "="); i >= 0 {
			url, label = v[:i], v[i+1:]
		}
	} else {
		last := strings.LastIndex(v, "&")
		last = max(last, q)
		param := v[last+1:]
		if first := strings.Index(param, "="); first >= 0 {
			if second := strings.Index(param[first+1:], "="); second >= 0 {
				cut := last + 1 + first + 1 + second
				url, label = v[:cut], v[cut+1:]
			}
		}
	}
	if url == "" {
		return api.Link{}, cmdutil.UsageErrorf("--link %q: give URL or URL=LABEL", v)
	}
	l := api.Link{URL: url}
	if label != "" {
		l.Label = &label
	}
	return l, nil
}
