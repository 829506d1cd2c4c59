package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cli/output"
)

func newAdminBackupCmd(o *adminOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "backup PATH",
		Short: "Write a consistent copy of the embedded database, safe while the server runs",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			if _, err := os.Stat(path); err == nil {
				return usageErrorf("%s already exists: choose a new file name, or remove it first", path)
			} else if !errors.Is(err, os.ErrNotExist) {
				return err
			}
			ctx := cmd.Context()
			db, err := o.open(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			if err := db.Backup(ctx, path); err != nil {
				return fmt.Errorf("backup to %s failed: %w", path, err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "Backed up to %s.\n", path)
			return err
		},
	}
}

func newAdminMigrateCmd(o *adminOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Bring the database schema up to date and print its version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			asJSON, err := o.asJSON(cmd)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			db, err := o.open(ctx) // opening migrates
			if err != nil {
				return err
			}
			defer db.Close()
			v, err := db.SchemaVersion(ctx)
			if err != nil {
				return err
			}
			if asJSON {
				return output.WriteJSON(cmd.OutOrStdout(), map[string]any{"dialect": db.Dialect(), "schema_version": v})
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "Schema version %d (%s), up to date.\n", v, db.Dialect())
			return err
		},
	}
}
