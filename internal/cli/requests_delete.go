package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// RequestsDeleteOptions are `requests delete`'s inputs.
type RequestsDeleteOptions struct {
	cmdEnv
	Ref string
	Yes bool
}

// NewCmdRequestsDelete is `dealctl requests delete REQUEST`.
func NewCmdRequestsDelete(f *Factory) *cobra.Command {
	opts := &RequestsDeleteOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:   "delete REQUEST",
		Short: "Delete a request, or an empty section, that has no messages",
		Long: `Deletes a request, or a section with nothing under it, that has no
messages: nothing said on the deal is ever deleted. Only the owning side's
admins and editors may delete. A request with messages, or a section with
rows under it, is refused (exit 5).

The deletion is kept in the deal's history with every field of the row:
'dealctl history REQUEST' shows it, and 'dealctl revert REQUEST --to
EVENT_ID' makes the row again (a new id, the same number and fields).

On a terminal it asks first; --yes skips the question, and without a
terminal --yes is required (exit 2). Needs a server that advertises the
delete extension (dealctl serve does).`,
		Example: `  dealctl requests delete 4.7
  dealctl requests delete 4.7 --yes`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRequests(f, ""),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			return requestsDeleteRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "delete without asking")
	return cmd
}

// deleteResult is what -o json prints.
type deleteResult struct {
	Number  string `json:"number"`
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Title   string `json:"title"`
	Deleted bool   `json:"deleted"`
}

func requestsDeleteRun(ctx context.Context, o *RequestsDeleteOptions) error {
	s, r, err := o.openRequest(ctx, o.Ref)
	if err != nil {
		return err
	}
	if !s.c.Supports(api.ExtDelete) {
		return cmdutil.WithExit(cmdutil.ExitFailure, fmt.Errorf("this server does not advertise the delete extension (or DEALCTL_NO_EXTENSIONS is set): requests cannot be deleted through it"))
	}
	declined, err := confirmOrRefuse(o.IO, o.Yes, fmt.Sprintf("Delete %s %s? It stays in 'dealctl history %s' and can be made again with 'dealctl revert'.", r.Number, r.Title, r.Number),
		"deleting "+r.Number)
	if err != nil {
		return err
	}
	res := deleteResult{Number: r.Number, ID: r.ID, Kind: string(r.Kind), Title: r.Title}
	if !declined {
		if err := deleteRow(ctx, s, r, s.forUpdate(r)); err != nil {
			return err
		}
		res.Deleted = true
	}
	p := o.Printer()
	return p.Print(output.View{Data: res, Human: func(w io.Writer) error {
		res := output.SafeCopy(res)
		if !res.Deleted {
			_, err := fmt.Fprintf(w, "%s kept: nothing deleted\n", res.Number)
			return err
		}
		_, err := fmt.Fprintf(w, "Deleted %s %s. 'dealctl history %s' shows the deletion's event id; 'dealctl revert %s --to EVENT_ID' makes it again.\n",
			res.Number, res.Title, res.Number, res.Number)
		return err
	}})
}

// deleteRow deletes r on the condition etag, and says in words why the
// server refused: what the row still holds, or that it changed meanwhile.
func deleteRow(ctx context.Context, s *dealScope, r *api.DealRequest, etag string) error {
	err := s.c.DeleteRequest(ctx, s.Deal.ID, r.ID, etag)
	var ce *client.Error
	if !errors.As(err, &ce) {
		return err
	}
	switch ce.Response.Reason() {
	case api.ReasonHasMessages:
		return &describedError{err: err, msg: fmt.Sprintf("%s has messages, and nothing said on a deal is deleted: it was kept", r.Number)}
	case api.ReasonHasChildren:
		return &describedError{err: err, msg: fmt.Sprintf("section %s has rows under it: delete those first; nothing was deleted", r.Number)}
	case api.ReasonCannotDeleteRequest:
		return &describedError{err: err, msg: fmt.Sprintf("only the owning side's admins and editors may delete requests: %s was kept", r.Number)}
	}
	return explainStale(r, err)
}
