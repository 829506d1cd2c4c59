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
	"github.com/dealctl/dealctl/internal/display"
)

// StatusOptions are `status`'s inputs.
type StatusOptions struct {
	cmdEnv
	Ref    string
	Status string
}

// NewCmdStatus is the top-level `dealctl status REQUEST STATUS`, the same
// as `dealctl requests status`.
func NewCmdStatus(f *Factory) *cobra.Command {
	return newCmdStatus(f, "status REQUEST STATUS")
}

func newCmdStatus(f *Factory, use string) *cobra.Command {
	opts := &StatusOptions{cmdEnv: f.env()}
	return &cobra.Command{
		Use:   use,
		Short: "Move a request to open, partial or complete",
		Long: `Moves a request's status. Asking for the status it already has succeeds
and says so without calling the server, so scripts can re-run safely. A
move your role does not allow exits 5 and lists the moves you may make.`,
		Args:        cobra.ExactArgs(2),
		Annotations: map[string]string{cmdutil.ArgsHintAnnotation: "STATUS is open, partial or complete (dealctl status 2.3 complete)"},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return completeRequests(f, api.KindRequest)(cmd, args, toComplete)
			}
			if len(args) == 1 {
				return enumCompletion(api.RequestStatuses)(cmd, args, toComplete)
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref, opts.Status = args[0], args[1]
			return statusRun(cmd.Context(), opts)
		},
	}
}

// statusResult is what -o json prints.
type statusResult struct {
	Number  string            `json:"number"`
	From    api.RequestStatus `json:"from"`
	To      api.RequestStatus `json:"to"`
	Changed bool              `json:"changed"`
	Request *api.DealRequest  `json:"request"`
}

func statusRun(ctx context.Context, o *StatusOptions) error {
	to, err := parseEnum("status", o.Status, api.RequestStatuses)
	if err != nil {
		return err
	}
	s, r, err := o.openRequest(ctx, o.Ref)
	if err != nil {
		return err
	}
	if r.Kind == api.KindSection {
		return cmdutil.UsageErrorf("%s is a section: sections have no status", r.Number)
	}
	// r is current: from the list just read or confirmed, whose
	// updated_at the move sends back as its precondition, or read on its
	// own with its ETag, which the move sends back as If-Match.
	after, changed, err := s.c.MoveStatus(ctx, s.Deal.ID, r, s.forUpdate(r), to)
	var refused *client.MoveRefusedError
	if errors.As(err, &refused) && refused.Err == nil {
		return cmdutil.WithExit(cmdutil.ExitConflict, err)
	}
	if err != nil {
		return explainStale(r, err)
	}
	res := statusResult{Number: r.Number, From: r.Status, To: to, Changed: changed, Request: after}
	if after == nil {
		after = r
	}
	return printWrite(o.cmdEnv, res, after, func(w io.Writer, th *display.Theme) error {
		res := output.SafeCopy(res)
		var line string
		if res.Changed {
			line = fmt.Sprintf("%s moved from %s to %s", res.Number, th.Status(string(res.From)), th.Status(string(res.To)))
		} else {
			line = fmt.Sprintf("%s is already %s; nothing to do", res.Number, th.Status(string(res.To)))
		}
		_, err := fmt.Fprintln(w, line)
		return err
	})
}
