package admin

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cmd/dbopen"
	"github.com/dealctl/dealctl/internal/cmd/settings"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/dbpath"
	"github.com/dealctl/dealctl/internal/iostreams"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// adminOptions are the flags every `admin` command shares. The admin
// commands work on the database directly, not through a server, so they
// need no key: whoever can open the database file administers it.
type adminOptions struct {
	DB     string
	Files  string // the object store file bytes go to; "" the database
	Output string
	IO     *iostreams.IOStreams // what is known of the terminal; output goes to cmd.OutOrStdout()

	origins settings.Origins // which setting gave each flag, for messages
}

// adminSettings are the environment variables that stand in for the
// admin commands' flags (DEALCTL_DB is dbpath's, which also says where the
// database came from).
var adminSettings = []settings.Var{{Flag: "files", Env: "DEALCTL_FILES"}}

// NewCmd builds `dealctl admin`; io tells what is known of the terminal.
func NewCmd(io *iostreams.IOStreams) *cobra.Command {
	o := &adminOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "admin",
		Short: "Administer a dealctl server's database: seed worlds, keys, archiving, files, digests, backups",
		Long: `Administer the database a dealctl server runs on, directly (no server or key needed).

The database is --db, else $DEALCTL_DB, else the embedded database under the
user's data directory ($XDG_DATA_HOME/dealctl/dealctl.db, or
~/.local/share/dealctl/dealctl.db). --db takes a file path, sqlite:PATH, a
postgres:// URL or a libpq "host=… dbname=…" string.

Admin commands never create a database no one named: one that is not there
is an error (exit 3) saying where they looked. 'admin migrate' and 'admin
apply' create it when --db or DEALCTL_DB names it; 'serve' creates the
default one and says so.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmd.PersistentPreRunE = func(c *cobra.Command, args []string) error {
		// Cobra runs only the nearest PersistentPreRunE: the root's
		// (when admin is in the whole tree) runs first, as it would
		// without this one.
		if root := c.Root(); root != cmd && root.PersistentPreRunE != nil {
			if err := root.PersistentPreRunE(c, args); err != nil {
				return err
			}
		}
		origins, err := settings.Apply(c.Flags(), settings.System, adminSettings)
		o.origins = origins
		return err
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&o.DB, "db", "", "database: file path, sqlite:PATH or postgres:// URL (env DEALCTL_DB)")
	pf.StringVar(&o.Files, "files", "", "where file bytes live, as serve --files (env DEALCTL_FILES): the database (default) or s3://BUCKET/PREFIX?endpoint=URL&region=REGION")
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
		newAdminDigestCmd(o),
	)
	return cmd
}

// runOptions are what every admin subcommand's run function works from
// besides its own flags: the shared flags, where results and notes go,
// and whether results are JSON. Each subcommand embeds them in an Options
// struct of its own, so that its run function can be called, and tested,
// without cobra.
type runOptions struct {
	*adminOptions
	Out    io.Writer // results
	ErrOut io.Writer // notes, such as the migrations opening the database applied
	AsJSON bool
}

// runOptions are o with the command's streams; AsJSON is left for the
// subcommands that print JSON to set (asJSON), so that the others keep
// ignoring -o.
func (o *adminOptions) runOptions(cmd *cobra.Command) runOptions {
	return runOptions{adminOptions: o, Out: cmd.OutOrStdout(), ErrOut: cmd.ErrOrStderr()}
}

// open opens the database the flags name and brings its schema up to
// date. It never creates one: a database that is not there, or has no
// dealctl schema, is an error (exit 3) saying where it looked.
func (o runOptions) open(ctx context.Context) (*sqlstore.DB, error) {
	return o.openDB(ctx, o.ErrOut, false)
}

// openOrCreate is open for `admin apply` and `admin migrate`, which
// create the database when --db or DEALCTL_DB names it — never at the
// default location, which no one named.
func (o runOptions) openOrCreate(ctx context.Context) (*sqlstore.DB, error) {
	return o.openDB(ctx, o.ErrOut, true)
}

// openDB opens the database; notes (nil: none) hears which migrations
// opening it applied.
func (o *adminOptions) openDB(ctx context.Context, notes io.Writer, create bool) (*sqlstore.DB, error) {
	choice, err := dbpath.Choose(o.DB)
	if err != nil {
		return nil, err
	}
	mayCreate := create && choice.Source != dbpath.FromDefault
	db, err := sqlstore.OpenWith(ctx, choice.DSN, sqlstore.OpenOptions{MustExist: !mayCreate})
	if err != nil {
		return nil, dbopen.Error(choice, err)
	}
	if r := db.Migrated(); len(r.Applied) > 0 && notes != nil {
		// Every admin command migrates what it opens; say so, so that an
		// upgrade is never invisible.
		fmt.Fprintln(notes, migrationSummary(r, db.Dialect()))
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
	return false, cmdutil.UsageErrorf("-o %q: admin commands print text or json", o.Output)
}
