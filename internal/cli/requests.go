package cli

import (
	"github.com/spf13/cobra"
)

// NewCmdRequests is `dealctl requests`.
func NewCmdRequests(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "requests",
		Aliases: []string{"request", "req"},
		Short:   "List, show, create, edit, assign, move and delete requests",
	}
	cmd.AddCommand(
		NewCmdRequestsList(f, nil),
		NewCmdRequestsShow(f, nil),
		NewCmdRequestsCreate(f, nil),
		NewCmdRequestsEdit(f, nil),
		NewCmdRequestsAssign(f, nil),
		newCmdStatus(f, nil, "status REQUEST STATUS"),
		NewCmdRequestsDelete(f, nil),
	)
	return cmd
}
