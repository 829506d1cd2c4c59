package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// `dealctl inbox`: the replies by e-mail of the caller's side waiting for
// confirmation (docs/mail.md). A reply to a notification e-mail is held
// until its sender confirms it on the web, or a colleague of the same
// side posts it here for them (on_behalf) or discards it.

// NewCmdInbox is `dealctl inbox`.
func NewCmdInbox(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "inbox",
		Short: "Confirm replies by e-mail for a colleague",
		Long: `Replies by e-mail to notifications are held until confirmed: the sender gets a
link to confirm theirs, and any admin or editor of the same side may post one
for them (shown as on behalf) or discard it. The inbox lists the held replies
of your side; the other side's are never shown (docs/mail.md).`,
	}
	cmd.AddCommand(newCmdInboxList(f), newCmdInboxShow(f), newCmdInboxDecide(f, true), newCmdInboxDecide(f, false))
	return cmd
}

// InboxOptions are the inbox commands' inputs.
type InboxOptions struct {
	cmdEnv
	ID string // a held reply's id, or the start of one
}

func newCmdInboxList(f *Factory) *cobra.Command {
	opts := &InboxOptions{cmdEnv: f.env()}
	return &cobra.Command{
		Use:         "ls",
		Aliases:     []string{"list"},
		Annotations: printsTable,
		Short:       "List your side's replies by e-mail waiting for confirmation",
		Args:        cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return inboxListRun(cmd.Context(), opts)
		},
	}
}

func newCmdInboxShow(f *Factory) *cobra.Command {
	opts := &InboxOptions{cmdEnv: f.env()}
	return &cobra.Command{
		Use:   "show ID",
		Short: "Show exactly what posting a held reply will post",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return inboxShowRun(cmd.Context(), opts)
		},
	}
}

func newCmdInboxDecide(f *Factory, post bool) *cobra.Command {
	opts := &InboxOptions{cmdEnv: f.env()}
	use, short := "discard ID", "Discard a held reply: nothing is posted"
	if post {
		use, short = "post ID", "Post a held reply as its sender's answer (on behalf, when not yours)"
	}
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return inboxDecideRun(cmd.Context(), opts, post)
		},
	}
}

// openInbox opens the deal and checks the server holds replies at all.
func (o *InboxOptions) openInbox(ctx context.Context) (*dealScope, error) {
	s, err := o.openDeal(ctx)
	if err != nil {
		return nil, err
	}
	if !s.c.Supports(api.ExtHeldReplies) {
		return nil, cmdutil.WithExit(cmdutil.ExitFailure, fmt.Errorf(
			"this server does not take replies by e-mail (it does not advertise the held-replies extension, or DEALCTL_NO_EXTENSIONS is set)"))
	}
	return s, nil
}

func inboxListRun(ctx context.Context, o *InboxOptions) error {
	s, err := o.openInbox(ctx)
	if err != nil {
		return err
	}
	held, err := s.c.HeldReplies(ctx, s.Deal.ID)
	if err != nil {
		return err
	}
	if held == nil {
		held = []api.HeldReply{}
	}
	t := &output.Table{Columns: []output.Column{
		{Header: "ID"}, {Header: "REQUEST"}, {Header: "FROM"}, {Header: "RECEIVED"}, {Header: "EXPIRES"}, {Header: "FILES"}, {Header: "TEXT"},
	}}
	for _, h := range held {
		t.AddRow(h.ID, h.RequestNumber, authorLabel(h.Sender), timeCell(&h.ReceivedAt), timeCell(&h.ExpiresAt), itoa(len(h.Files)), strings.TrimRight(h.Text, "\n"))
	}
	return o.Printer().Print(output.View{Data: held, Table: t, Human: func(w io.Writer) error {
		if len(held) == 0 {
			o.Infof("No replies by e-mail are waiting for your side")
			return nil
		}
		for i, h := range output.SafeCopy(held) {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeHeld(w, &h, o.Printer().Theme)
		}
		return nil
	}})
}

// openHeld opens the inbox (openInbox) and resolves ID in it (heldID):
// what show, post and discard start with.
func (o *InboxOptions) openHeld(ctx context.Context) (*dealScope, string, error) {
	if strings.TrimSpace(o.ID) == "" {
		// Sent as it is, an empty id is a path of the list (405, exit 1).
		return nil, "", cmdutil.UsageErrorf("the held reply's ID is empty: give its id or the start of one ('dealctl inbox ls' lists them)")
	}
	s, err := o.openInbox(ctx)
	if err != nil {
		return nil, "", err
	}
	id, err := o.heldID(ctx, s)
	if err != nil {
		return nil, "", err
	}
	return s, id, nil
}

// minHeldPrefix is the fewest characters of a held reply's id that name
// it.
const minHeldPrefix = 4

// heldID resolves ID: a whole id as it is, the start of one (at least
// minHeldPrefix characters) among the held replies listed.
func (o *InboxOptions) heldID(ctx context.Context, s *dealScope) (string, error) {
	id := strings.ToLower(strings.TrimSpace(o.ID))
	if api.IsID(id) {
		return id, nil // no list needed: the server says whether it is held
	}
	if !api.IsIDStart(id) {
		// As import undo refuses what is not a run id: a usage error
		// (exit 2), not a call answered "not found".
		return "", cmdutil.UsageErrorf("%q is not a held reply's id: give its id or the start of one ('dealctl inbox ls' lists them)", termsafe.OneLine(o.ID, 64))
	}
	held, err := s.c.HeldReplies(ctx, s.Deal.ID)
	if err != nil {
		return "", err
	}
	var found []string
	short := false // the start of one, but too short to be taken for it
	for _, h := range held {
		switch {
		case h.ID == id || (len(id) >= minHeldPrefix && strings.HasPrefix(h.ID, id)):
			found = append(found, h.ID)
		case strings.HasPrefix(h.ID, id):
			short = true
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) == 0 && short:
		return "", cmdutil.UsageErrorf("%q is too short to name a held reply: give at least %d characters of its id", o.ID, minHeldPrefix)
	case len(found) == 0:
		// Not a whole id, so not sent as one (the server's bare
		// not_found said nothing): not found (exit 3), as requests show
		// answers a number the deal lacks, with the message under --json.
		return "", cmdutil.NotFoundErrorf("no reply by e-mail whose id starts %q waits for your side on this deal: 'dealctl inbox ls' lists those that do", o.ID)
	}
	return "", cmdutil.UsageErrorf("%q names %d held replies: give more of the id", o.ID, len(found))
}

// heldError words a held reply the server does not know for the caller:
// gone from the inbox, never there, or another side's; the inbox lists
// those waiting. It keeps the server's answer for the exit code (3) and
// --json. Other errors pass as they are (a conflict's reason is worded
// by describeAPIError: posted or discarded already, expired).
func (o *InboxOptions) heldError(err error) error {
	if client.IsNotFound(err) {
		return &describedError{err: err, msg: fmt.Sprintf("no reply by e-mail %q waits for your side on this deal: 'dealctl inbox ls' lists those that do", termsafe.OneLine(o.ID, 64))}
	}
	return err
}

func inboxShowRun(ctx context.Context, o *InboxOptions) error {
	s, id, err := o.openHeld(ctx)
	if err != nil {
		return err
	}
	h, err := s.c.HeldReply(ctx, s.Deal.ID, id)
	if err != nil {
		return o.heldError(err)
	}
	return o.Printer().Print(output.View{Data: h, Human: func(w io.Writer) error {
		safe := output.SafeCopy(*h)
		writeHeld(w, &safe, o.Printer().Theme)
		return nil
	}})
}

func inboxDecideRun(ctx context.Context, o *InboxOptions, post bool) error {
	s, id, err := o.openHeld(ctx)
	if err != nil {
		return err
	}
	if !post {
		h, err := s.c.DiscardHeldReply(ctx, s.Deal.ID, id)
		if err != nil {
			return o.heldError(err)
		}
		return o.Printer().Print(output.View{Data: h, Human: func(w io.Writer) error {
			o.Infof("Discarded the reply by e-mail of %s to %s: nothing was posted", termsafe.OneLine(authorLabel(h.Sender), 0), termsafe.OneLine(h.RequestNumber, 0))
			return nil
		}})
	}
	m, err := s.c.PostHeldReply(ctx, s.Deal.ID, id)
	if err != nil {
		return o.heldError(err)
	}
	return o.Printer().Print(output.View{Data: m, Human: func(w io.Writer) error {
		safe := output.SafeCopy(*m)
		writeMessage(ctx, w, &safe, o.Printer().Theme, nil)
		return nil
	}})
}

// writeHeld prints one held reply, made safe by the caller: what it
// answers, who sent it, then exactly the text and files that will be
// posted.
func writeHeld(w io.Writer, h *api.HeldReply, th *display.Theme) {
	fmt.Fprintf(w, "%s %s %s\n", th.Bold(h.ID), th.Bold(h.RequestNumber), h.RequestTitle)
	fmt.Fprintf(w, "%s %s\n", th.Dim("from"), authorLabel(h.Sender))
	fmt.Fprintf(w, "%s %s, %s %s\n", th.Dim("received"), timeCell(&h.ReceivedAt), th.Dim("held until"), timeCell(&h.ExpiresAt))
	if h.State != "held" {
		fmt.Fprintf(w, "%s %s\n", th.Dim("state"), h.State)
	}
	if text := strings.TrimRight(h.Text, "\n"); text != "" {
		fmt.Fprintln(w, text)
	}
	for _, f := range h.Files {
		fmt.Fprintf(w, "  %s (%s)\n", f.Name, display.HumanSize(f.Size))
	}
}
