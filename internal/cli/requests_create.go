package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// RequestsCreateOptions are `requests create`'s inputs.
type RequestsCreateOptions struct {
	cmdEnv
	Title, Body, BodyFile, Number, Parent, Kind  string
	Priority, Category, Requester, Due, Assignee string
	// Force creates a request even where one close to it is on the deal.
	Force bool
	// Set records which optional flags were given, so that only those are
	// sent and the server's defaults apply to the rest.
	Set map[string]bool
}

// NewCmdRequestsCreate is `dealctl requests create`.
func NewCmdRequestsCreate(f *Factory) *cobra.Command {
	opts := &RequestsCreateOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:   "create --title TITLE",
		Short: "Create a request or section (owning side's admins and editors)",
		Long: `Creates a request or a section. Before a request is written, the deal is
searched for one that asks the same thing (title words alike, and bodies
where both have one: docs/decisions.md, "Search"); when there is, nothing is
written, the close requests are named, and the command exits 5. --force
creates it all the same. The check never asks anything: in a script it stops
the same way.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Set = changedFlags(cmd)
			return requestsCreateRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Title, "title", "", "title (required)")
	fl.StringVar(&opts.Body, "body", "", "body, Markdown")
	fl.StringVarP(&opts.BodyFile, "body-file", "F", "", "read the body from FILE (- for stdin)")
	fl.StringVar(&opts.Number, "number", "", "number (default: next under the parent)")
	fl.StringVar(&opts.Parent, "parent", "", "section to put it under (number or id)")
	fl.StringVar(&opts.Kind, "kind", "", "request or section")
	fl.StringVar(&opts.Priority, "priority", "", "low, medium or high")
	fl.StringVar(&opts.Category, "category", "", "business, legal, tax, accounting, technology, human_resources")
	fl.StringVar(&opts.Requester, "requester", "", "the advisor firm raising it")
	fl.StringVar(&opts.Due, "due", "", "due date, YYYY-MM-DD in the deal's time zone")
	fl.StringVar(&opts.Assignee, "assignee", "", "person to answer it: email, name, me or id")
	fl.BoolVar(&opts.Force, "force", false, "create it even where a request close to it is on the deal")
	_ = cmd.MarkFlagRequired("title")
	cmd.MarkFlagsMutuallyExclusive("body", "body-file")
	_ = cmd.RegisterFlagCompletionFunc("kind", enumCompletion(api.RequestKinds))
	_ = cmd.RegisterFlagCompletionFunc("priority", enumCompletion(api.Priorities))
	_ = cmd.RegisterFlagCompletionFunc("category", enumCompletion(api.RequestCategories))
	_ = cmd.RegisterFlagCompletionFunc("parent", completeRequests(f, api.KindSection))
	_ = cmd.RegisterFlagCompletionFunc("assignee", completePeople(f, "me"))
	return cmd
}

func requestsCreateRun(ctx context.Context, o *RequestsCreateOptions) error {
	in := api.DealRequestCreate{Title: api.Some(o.Title)}
	if strings.TrimSpace(o.Title) == "" {
		return cmdutil.UsageErrorf("--title must not be blank")
	}
	if o.Set["kind"] {
		k, err := parseEnum("--kind", o.Kind, api.RequestKinds)
		if err != nil {
			return err
		}
		in.Kind = api.Some(k)
	}
	if o.Set["priority"] {
		v, err := parseEnum("--priority", o.Priority, api.Priorities)
		if err != nil {
			return err
		}
		in.Priority = api.Some(v)
	}
	if o.Set["category"] {
		v, err := parseEnum("--category", o.Category, api.RequestCategories)
		if err != nil {
			return err
		}
		in.Category = api.Some(v)
	}
	body, bodySet, err := readBody(o.IO.In, o.Body, o.BodyFile, o.Set["body"], o.Set["body-file"])
	if err != nil {
		return err
	}
	if o.Set["body-file"] && strings.TrimSpace(body) == "" {
		return emptyBodyFileError(o.BodyFile, "to create the request without a body, drop -F")
	}
	if bodySet {
		in.Body = api.Some(body)
	}
	if o.Set["number"] {
		in.Number = api.Some(o.Number)
	}
	if o.Set["requester"] {
		in.Requester = api.Some(o.Requester)
	}

	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	if o.Set["due"] {
		d, err := s.parseDay("--due", o.Due, o.Now())
		if err != nil {
			return err
		}
		in.DueDate = api.Some(d)
	}
	if o.Set["parent"] {
		parent, err := s.Request(ctx, o.Parent)
		if err != nil {
			return err
		}
		if parent.Kind != api.KindSection {
			return cmdutil.UsageErrorf("--parent %s is a request: only a section can hold others", o.Parent)
		}
		in.ParentID = api.Some(parent.ID)
	}
	if o.Set["assignee"] {
		p, err := s.Person(ctx, o.Assignee)
		if err != nil {
			return err
		}
		in.AssigneeID = api.Some(p.ID)
	}
	if !o.Force && (!in.Kind.Set || in.Kind.Value == api.KindRequest) {
		similar, err := askedBefore(ctx, s, o.Title, body)
		if err != nil {
			return err
		}
		if len(similar) > 0 {
			return askedBeforeError(o.Title, similar)
		}
	}
	r, err := s.c.CreateRequest(ctx, s.Deal.ID, in)
	if err != nil {
		return err
	}
	return printChangedRequest(o.cmdEnv, r, fmt.Sprintf("Created %s %s: %s", r.Kind, r.Number, r.Title))
}

// printChangedRequest prints a request a command created or changed
// with the sentence that says so: see printWrite.
func printChangedRequest(e cmdEnv, r *api.DealRequest, sentence string) error {
	return printWrite(e, r, r, func(w io.Writer, th *display.Theme) error {
		_, err := fmt.Fprintln(w, termsafe.Line(sentence))
		return err
	})
}

// printWrite prints what a write did, in the one shape every write
// (create, edit, assign, status, answer) shares: data for -o json/yaml
// and --jq; on a terminal, what human writes for a person; on a pipe,
// "NUMBER\tSTATUS\tID" of the request r on stdout, the data a script
// picks up, with what human writes going to stderr as the confirmation.
// -q leaves only the data: nothing on a terminal, the line on a pipe.
func printWrite(e cmdEnv, data any, r *api.DealRequest, human func(w io.Writer, th *display.Theme) error) error {
	p := e.Printer()
	return p.Print(output.View{Data: data, Human: func(w io.Writer) error {
		if e.IO.IsStdoutTTY() {
			if e.Quiet() {
				return nil
			}
			return human(w, p.Theme)
		}
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\n", r.Number, r.Status, r.ID); err != nil {
			return err
		}
		if e.Quiet() {
			return nil
		}
		var confirm bytes.Buffer
		if err := human(&confirm, display.NewTheme(&confirm, false)); err != nil {
			return err
		}
		_, err := io.WriteString(e.IO.ErrOut, termsafe.Text(confirm.String()))
		return err
	}})
}

// readBody takes the text of --body, or of --body-file/-F (- is stdin).
func readBody(stdin io.Reader, body, file string, bodySet, fileSet bool) (string, bool, error) {
	switch {
	case fileSet:
		var data []byte
		var err error
		if file == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(file)
		}
		if err != nil {
			return "", false, cmdutil.WithExit(cmdutil.ExitUsage, fmt.Errorf("reading %s: %w", file, err))
		}
		return string(data), true, nil
	case bodySet:
		return body, true, nil
	}
	return "", false, nil
}

// emptyBodyFileError refuses a -F that gave nothing: a pipe whose command
// failed, or the wrong file, must not blank a request's body. hint says
// how to do on purpose what an empty body would do.
func emptyBodyFileError(file, hint string) error {
	from := file
	if file == "-" {
		from = "stdin"
	}
	return cmdutil.UsageErrorf("nothing read from %s (-F %s): %s", from, file, hint)
}

// changedFlags lists the flags given on the command line.
func changedFlags(cmd *cobra.Command) map[string]bool {
	set := map[string]bool{}
	cmd.Flags().Visit(func(f *pflag.Flag) { set[f.Name] = true })
	return set
}
