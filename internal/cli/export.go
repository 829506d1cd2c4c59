package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// NewCmdExport is a placeholder until the command is built.
func NewCmdExport(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:    "export",
		Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("export is not built yet")
		},
	}
}
