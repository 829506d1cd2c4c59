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
	"github.com/dealctl/dealctl/internal/termsafe"
)

// NewCmdMessages is `dealctl messages`.
func NewCmdMessages(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "messages", Short: "Read a request's conversation"}
	cmd.AddCommand(NewCmdMessagesList(f, nil))
	return cmd
}

// MessagesListOptions are `messages ls`'s inputs.
type MessagesListOptions struct {
	cmdEnv
	Ref string
}

// NewCmdMessagesList is `dealctl messages ls REQUEST`.
func NewCmdMessagesList(f *Factory, runF func(*MessagesListOptions) error) *cobra.Command {
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
			if runF != nil {
				return runF(opts)
			}
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
		for i, m := range output.SafeCopy(msgs) {
			if i > 0 {
				fmt.Fprintln(w)
			}
			width := 0
			if tty {
				width = o.IO.TerminalWidth()
			}
			if err := writeMessage(w, &m, p.Theme, width, o.IO.ColorEnabled()); err != nil {
				return err
			}
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
// files. With width > 0 (a terminal that wide) Markdown text is rendered;
// otherwise it is printed as written. m is made safe for a terminal
// (output.SafeCopy) by the caller.
func writeMessage(w io.Writer, m *api.Message, th *output.Theme, width int, color bool) error {
	fmt.Fprintf(w, "%s %s %s\n", th.Bold(authorLabel(m.Author)), th.Dim(timeCell(m.PostedAt)), th.Dim("("+strings.Join(output.MessageTags(*m), ", ")+")"))
	text := strings.TrimRight(m.Text, "\n")
	if width > 0 && m.Format == api.FormatMarkdown && text != "" {
		if out, err := renderMarkdown(text, min(max(width, 40), 120), color); err == nil {
			text = output.TrimRendered(out)
		}
	}
	if text != "" {
		fmt.Fprintln(w, text)
	}
	for _, f := range m.Files {
		fmt.Fprintln(w, "  "+output.FileLine(f))
	}
	return nil
}

// renderMarkdown renders one message's text; the renderer is built only
// when a conversation is shown on a terminal. The text comes made safe;
// a character reference such as &#27; would still decode to a control
// in the renderer, so those are shown as written.
func renderMarkdown(text string, width int, color bool) (string, error) {
	r, err := output.NewMarkdownRenderer(width, color)
	if err != nil {
		return "", err
	}
	return r.Render(termsafe.Markdown(text))
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
