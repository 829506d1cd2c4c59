package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
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
	Set      map[string]bool
	// Edit opens $EDITOR on a terminal when no text was given.
	Edit func() (string, error)
}

// NewCmdAnswer is `dealctl answer REQUEST`.
func NewCmdAnswer(f *Factory, runF func(*AnswerOptions) error) *cobra.Command {
	opts := &AnswerOptions{cmdEnv: f.env(), Edit: editText}
	cmd := &cobra.Command{
		Use:   "answer REQUEST [-m TEXT | -F FILE]",
		Short: "Post an answer, question, reference or internal note on a request",
		Long: `Posts a message on a request and prints it with the request's new status.

The text comes from -m, from -F FILE (- for stdin), or, on a terminal with
neither, from $EDITOR. A response completes the request, or moves it to
partial with --partial; --no-status leaves the status alone. Links are
given as --link URL or --link URL=LABEL, repeatably (a URL with a query
takes its label after the last parameter: https://x/?a=b=Label).`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRequests(f, api.KindRequest),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			opts.Set = changedFlags(cmd)
			if runF != nil {
				return runF(opts)
			}
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
	cmd.MarkFlagsMutuallyExclusive("message", "file")
	_ = cmd.RegisterFlagCompletionFunc("kind", enumCompletion(api.MessageKinds))
	return cmd
}

// answerResult is what -o json prints.
type answerResult struct {
	Message *api.Message     `json:"message"`
	Request *api.DealRequest `json:"request"`
}

func answerRun(ctx context.Context, o *AnswerOptions) error {
	in := api.MessageCreate{}
	if o.Set["kind"] {
		k, err := parseEnum("--kind", o.Kind, api.MessageKinds)
		if err != nil {
			return err
		}
		in.Kind = api.Some(k)
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
			return err
		}
		links = append(links, link)
	}
	if len(links) > api.MaxLinks {
		return usageErrorf("%d links given: at most %d per message", len(links), api.MaxLinks)
	}
	if links != nil {
		in.Links = api.Some(links)
	}

	var text string
	switch {
	case o.Set["message"]:
		text = o.Message
	case o.Set["file"]:
		t, _, err := readBody(o.IO.In, "", o.File, false, true)
		if err != nil {
			return err
		}
		text = t
	case len(links) > 0:
		// Links alone are a message.
	case o.IO.CanPrompt():
		t, err := o.Edit()
		if err != nil {
			return err
		}
		text = t
	default:
		return usageErrorf("no text: give -m TEXT or -F FILE (there is no terminal for an editor)")
	}
	if strings.TrimSpace(text) == "" && len(links) == 0 {
		return usageErrorf("the message is empty: nothing was posted")
	}
	if text != "" {
		in.Text = api.Some(text)
	}

	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	r, err := s.Request(ctx, o.Ref)
	if err != nil {
		return err
	}
	if r.Kind == api.KindSection {
		return usageErrorf("%s is a section: answer one of its requests", r.Number)
	}
	msg, err := s.c.PostMessage(ctx, s.Deal.ID, r.ID, in)
	if err != nil {
		return err
	}
	after, err := s.c.Request(ctx, s.Deal.ID, r.ID)
	if err != nil {
		return err
	}
	p := o.Printer()
	return p.Print(output.View{Data: answerResult{Message: msg, Request: after}, Human: func(w io.Writer) error {
		if err := writeMessage(w, msg, p.Theme, 0, false); err != nil {
			return err
		}
		_, err := fmt.Fprintf(w, "%s is now %s\n", after.Number, p.Theme.Status(string(after.Status)))
		return err
	}})
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
		return api.Link{}, usageErrorf("--link %q: give URL or URL=LABEL", v)
	}
	l := api.Link{URL: url}
	if label != "" {
		l.Label = &label
	}
	return l, nil
}

// editText opens $VISUAL or $EDITOR on an empty file and returns what was
// saved, without lines starting with "#".
func editText() (string, error) {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		return "", usageErrorf("no text: give -m or -F, or set $EDITOR")
	}
	f, err := os.CreateTemp("", "dealctl-answer-*.md")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	fmt.Fprintln(f, "\n# Write the answer above. Lines starting with # are dropped; an empty message is not posted.")
	f.Close()
	cmd := exec.Command("sh", "-c", editor+` "$1"`, "sh", f.Name())
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("editor %q failed: %w", editor, err)
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		return "", err
	}
	var keep []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "#") {
			keep = append(keep, line)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n")), nil
}
