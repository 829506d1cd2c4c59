package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// NewCmdTUI is a placeholder until the command is built.
func NewCmdTUI(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:    "tui",
		Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("tui is not built yet")
		},
	}
}
