package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cli/iostreams"
	"github.com/dealctl/dealctl/internal/dbpath"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// adminOptions are the flags every `admin` command shares. The admin
// commands work on the database directly, not through a server, so they
// need no key: whoever can open the database file administers it.
type adminOptions struct {
	DB     string
	Output string
	IO     *iostreams.IOStreams // what is known of the terminal; output goes to cmd.OutOrStdout()
}

func newAdminCmd(f *Factory) *cobra.Command {
	o := &adminOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "admin",
		Short: "Administer a dealctl server's database: seed worlds, keys, archiving, files, backups",
		Long: `Administer the database a dealctl server runs on, directly (no server or key needed).

The database is --db, else $DEALCTL_DB, else the embedded database under the
user's data directory ($XDG_DATA_HOME/dealctl/dealctl.db, or
~/.local/share/dealctl/dealctl.db). --db takes a file path, sqlite:PATH or a
postgres:// URL.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&o.DB, "db", "", "database: file path, sqlite:PATH or postgres:// URL (env DEALCTL_DB)")
	// Shadows the root's -o for admin commands, which print results of
	// their own rather than API resources.
	pf.StringVarP(&o.Output, "output", "o", "text", "output format: text or json")
	cmd.AddCommand(
		newAdminApplyCmd(o),
		newAdminKeysCmd(o),
		newAdminDealsCmd(o),
		newAdminFilesCmd(o),
		newAdminBackupCmd(o),
		newAdminMigrateCmd(o),
	)
	return cmd
}

// open opens the database the flags name, migrating it to this build's
// schema.
func (o *adminOptions) open(ctx context.Context) (*sqlstore.DB, error) {
	dsn, err := dbpath.Resolve(o.DB)
	if err != nil {
		return nil, err
	}
	db, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("cannot open the database %s: %w (check --db or %s)", redactDSN(dsn), err, dbpath.EnvVar)
	}
	return db, nil
}

// asJSON reports whether -o json (or the root's --json) was asked for.
func (o *adminOptions) asJSON(cmd *cobra.Command) (bool, error) {
	if f := cmd.Flags().Lookup("json"); f != nil && f.Changed && f.Value.String() == "true" {
		return true, nil
	}
	switch o.Output {
	case "json":
		return true, nil
	case "text", "table", "":
		return false, nil
	}
	return false, usageErrorf("-o %q: admin commands print text or json", o.Output)
}
