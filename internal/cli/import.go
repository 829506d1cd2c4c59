package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// NewCmdImport is a placeholder until the command is built.
func NewCmdImport(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:    "import",
		Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("import is not built yet")
		},
	}
}
