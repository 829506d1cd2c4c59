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
		NewCmdRequestsShow(f),
		NewCmdRequestsCreate(f),
		NewCmdRequestsEdit(f),
		NewCmdRequestsAssign(f),
		newCmdStatus(f, "status REQUEST STATUS"),
		NewCmdRequestsDelete(f),
	)
	return cmd
}
