package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/termmd"
)

// NewCmdMessages is `dealctl messages`.
func NewCmdMessages(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "messages", Short: "Read a request's conversation"}
	cmd.AddCommand(NewCmdMessagesList(f))
	return cmd
}

// MessagesListOptions are `messages ls`'s inputs.
type MessagesListOptions struct {
	cmdEnv
	Ref string
}

// NewCmdMessagesList is `dealctl messages ls REQUEST`.
func NewCmdMessagesList(f *Factory) *cobra.Command {
	opts := &MessagesListOptions{cmdEnv: f.env()}
	return &cobra.Command{
		Use:               "ls REQUEST",
		Annotations:       printsTable, // -o csv|tsv
		Aliases:           []string{"list"},
		Short:             "Show a request's messages, oldest first",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRequests(f, api.KindRequest),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			return messagesListRun(cmd.Context(), opts)
		},
	}
}

func messagesListRun(ctx context.Context, o *MessagesListOptions) error {
	s, r, err := o.openRequest(ctx, o.Ref)
	if err != nil {
		return err
	}
	msgs, err := s.c.Messages(ctx, s.Deal.ID, r.ID)
	if err != nil {
		return err
	}
	if msgs == nil {
		msgs = []api.Message{}
	}
	p := o.Printer()
	tty := o.IO.IsStdoutTTY()
	return p.Print(output.View{Data: msgs, Table: messagesTable(msgs), Human: func(w io.Writer) error {
		if len(msgs) == 0 {
			o.Infof("No messages on %s yet", r.Number)
			return nil
		}
		// Markdown is rendered on a terminal only, within termmd's budget,
		// by one renderer for the whole conversation.
		var md *termmd.Renderer
		if tty {
			md, _ = termmd.New(min(max(o.IO.TerminalWidth(), 40), 120), o.IO.ColorEnabled())
		}
		for i, m := range output.SafeCopy(msgs) {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeMessage(ctx, w, &m, p.Theme, md)
		}
		return nil
	}})
}

func messagesTable(msgs []api.Message) *output.Table {
	t := &output.Table{Columns: []output.Column{
		{Header: "POSTED"}, {Header: "AUTHOR"}, {Header: "KIND"}, {Header: "PARTIAL"}, {Header: "INTERNAL"},
		{Header: "SOURCE"}, {Header: "FILES"}, {Header: "TEXT"}, {Header: "ID"},
	}}
	for _, m := range msgs {
		t.AddRow(timeCell(m.PostedAt), authorLabel(m.Author), string(m.Kind), yesNo(m.Partial), yesNo(m.Internal),
			string(m.Source), itoa(len(m.Files)), m.Text, m.ID)
	}
	return t
}

// writeMessage prints one message: a header line, the text, its links and
// files. With md (a terminal) Markdown text is rendered; otherwise it is
// printed as written. m is made safe for a terminal (output.SafeCopy) by
// the caller.
func writeMessage(ctx context.Context, w io.Writer, m *api.Message, th *display.Theme, md *termmd.Renderer) {
	fmt.Fprintf(w, "%s %s %s\n", th.Bold(authorLabel(m.Author)), th.Dim(timeCell(m.PostedAt)), th.Dim("("+strings.Join(display.MessageTags(*m), ", ")+")"))
	text := strings.TrimRight(m.Text, "\n")
	if md != nil && m.Format == api.FormatMarkdown && text != "" {
		text = md.Render(ctx, text)
	}
	if text != "" {
		fmt.Fprintln(w, text)
	}
	for _, f := range m.Files {
		fmt.Fprintln(w, "  "+display.FileLine(f))
	}
}

func authorLabel(a *api.Author) string {
	if a == nil {
		return "unknown"
	}
	if a.Name != nil && *a.Name != "" {
		return *a.Name + " <" + a.Email + ">"
	}
	return a.Email
}

func timeCell(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
