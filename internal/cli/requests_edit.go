package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// RequestsEditOptions are `requests edit`'s inputs.
type RequestsEditOptions struct {
	cmdEnv
	Ref                           string
	Title, Body, BodyFile, Number string
	Priority, Category, Requester string
	Set                           map[string]bool
}

// NewCmdRequestsEdit is `dealctl requests edit REQUEST`.
func NewCmdRequestsEdit(f *Factory) *cobra.Command {
	opts := &RequestsEditOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:               "edit REQUEST",
		Short:             "Change a request's title, body, number, priority, category or requester",
		Long:              "Only the flags given are sent. --requester \"\" clears the requester (the Financial Sponsor).",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRequests(f, ""),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			opts.Set = changedFlags(cmd)
			return requestsEditRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Title, "title", "", "new title")
	fl.StringVar(&opts.Body, "body", "", "new body, Markdown")
	fl.StringVarP(&opts.BodyFile, "body-file", "F", "", "read the new body from FILE (- for stdin)")
	fl.StringVar(&opts.Number, "number", "", "new number")
	fl.StringVar(&opts.Priority, "priority", "", "low, medium or high")
	fl.StringVar(&opts.Category, "category", "", "new category")
	fl.StringVar(&opts.Requester, "requester", "", "new requester (\"\" clears it)")
	cmd.MarkFlagsMutuallyExclusive("body", "body-file")
	_ = cmd.RegisterFlagCompletionFunc("priority", enumCompletion(api.Priorities))
	_ = cmd.RegisterFlagCompletionFunc("category", enumCompletion(api.RequestCategories))
	return cmd
}

func requestsEditRun(ctx context.Context, o *RequestsEditOptions) error {
	var in api.DealRequestUpdate
	if o.Set["title"] {
		if strings.TrimSpace(o.Title) == "" {
			return cmdutil.UsageErrorf("--title must not be blank")
		}
		in.Title = api.Some(o.Title)
	}
	body, bodySet, err := readBody(o.IO.In, o.Body, o.BodyFile, o.Set["body"], o.Set["body-file"])
	if err != nil {
		return err
	}
	if o.Set["body-file"] && strings.TrimSpace(body) == "" {
		return emptyBodyFileError(o.BodyFile, "to clear the body, pass --body ''")
	}
	if bodySet {
		in.Body = api.Some(body)
	}
	if o.Set["number"] {
		in.Number = api.Some(o.Number)
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
	if o.Set["requester"] {
		if o.Requester == "" {
			in.Requester = api.Null[string]()
		} else {
			in.Requester = api.Some(o.Requester)
		}
	}
	if in == (api.DealRequestUpdate{}) {
		return cmdutil.UsageErrorf("nothing to change: give --title, --body, -F, --number, --priority, --category or --requester")
	}
	s, r, err := o.openRequest(ctx, o.Ref)
	if err != nil {
		return err
	}
	updated, err := s.update(ctx, r, s.forUpdate(r), in)
	if err != nil {
		return err
	}
	return printChangedRequest(o.cmdEnv, updated, fmt.Sprintf("Updated %s: %s", updated.Number, updated.Title))
}

// RequestsAssignOptions are `requests assign`'s inputs.
type RequestsAssignOptions struct {
	cmdEnv
	Ref     string
	To, Due string
	Set     map[string]bool
}

// NewCmdRequestsAssign is `dealctl requests assign REQUEST`.
func NewCmdRequestsAssign(f *Factory) *cobra.Command {
	opts := &RequestsAssignOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:               "assign REQUEST [--to PERSON|none] [--due DATE|none]",
		Short:             "Set or clear a request's assignee and due date",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRequests(f, api.KindRequest),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			opts.Set = changedFlags(cmd)
			return requestsAssignRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.To, "to", "", "assignee: email, name, me, id, or none")
	cmd.Flags().StringVar(&opts.Due, "due", "", "due date: YYYY-MM-DD, today, tomorrow, or none")
	_ = cmd.RegisterFlagCompletionFunc("to", completePeople(f, "me", "none"))
	return cmd
}

func requestsAssignRun(ctx context.Context, o *RequestsAssignOptions) error {
	if !o.Set["to"] && !o.Set["due"] {
		return cmdutil.UsageErrorf("nothing to change: give --to PERSON|none and/or --due DATE|none")
	}
	s, err := o.openDealToAct(ctx)
	if err != nil {
		return err
	}
	var in api.DealRequestUpdate
	if o.Set["to"] {
		if strings.EqualFold(o.To, "none") {
			in.AssigneeID = api.Null[string]()
		} else {
			p, err := s.Person(ctx, o.To)
			if err != nil {
				return err
			}
			in.AssigneeID = api.Some(p.ID)
		}
	}
	if o.Set["due"] {
		if strings.EqualFold(o.Due, "none") {
			in.DueDate = api.Null[string]()
		} else {
			d, err := s.parseDay("--due", o.Due, o.Now())
			if err != nil {
				return err
			}
			in.DueDate = api.Some(d)
		}
	}
	r, err := s.Request(ctx, o.Ref)
	if err != nil {
		return err
	}
	if r.Kind == api.KindSection {
		return cmdutil.UsageErrorf("%s is a section: sections have no assignee or due date", r.Number)
	}
	updated, err := s.update(ctx, r, s.forUpdate(r), in)
	if err != nil {
		return err
	}
	if updated.AssigneeID != nil {
		// The assignee is shown by email (people were read already when
		// --to named them).
		if _, err := s.People(ctx); err != nil {
			return err
		}
	}
	return printChangedRequest(o.cmdEnv, updated, fmt.Sprintf("%s: assignee %s, due %s", updated.Number,
		orDash(s.personLabel(updated.AssigneeID)), orDash(deref(updated.DueDate))))
}
