package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

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
~/.local/share/dealctl/dealctl.db). --db takes a file path, sqlite:PATH, a
postgres:// URL or a libpq "host=… dbname=…" string.

Admin commands never create a database no one named: one that is not there
is an error (exit 3) saying where they looked. 'admin migrate' and 'admin
apply' create it when --db or DEALCTL_DB names it; 'serve' creates the
default one and says so.`,
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

// open opens the database the flags name and brings its schema up to
// date. It never creates one: a database that is not there, or has no
// dealctl schema, is an error (exit 3) saying where it looked.
func (o *adminOptions) open(cmd *cobra.Command) (*sqlstore.DB, error) {
	return o.openDB(cmd.Context(), cmd.ErrOrStderr(), false)
}

// openOrCreate is open for `admin apply` and `admin migrate`, which
// create the database when --db or DEALCTL_DB names it — never at the
// default location, which no one named.
func (o *adminOptions) openOrCreate(cmd *cobra.Command) (*sqlstore.DB, error) {
	return o.openDB(cmd.Context(), cmd.ErrOrStderr(), true)
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
		return nil, openError(choice, err)
	}
	if r := db.Migrated(); len(r.Applied) > 0 && notes != nil {
		// Every admin command migrates what it opens; say so, so that an
		// upgrade is never invisible.
		fmt.Fprintln(notes, migrationSummary(r, db.Dialect()))
	}
	return db, nil
}

// openError says why the database could not be opened and, when the
// cause is where dealctl looked, how to point it elsewhere.
func openError(choice dbpath.Choice, err error) error {
	where := dbpath.Redact(choice.DSN)
	var missing *sqlstore.MissingError
	var newer *sqlstore.SchemaNewerError
	switch {
	case errors.As(err, &missing) && missing.Postgres:
		return withExit(ExitNotFound, fmt.Errorf("%w (%s): check the URL, or create the database (createdb -O ROLE NAME), then run 'dealctl admin migrate'", missing, sourceOf(choice)))
	case errors.As(err, &missing):
		return withExit(ExitNotFound, fmt.Errorf("%w; %s", missing, chooseDatabaseHint(choice)))
	case errors.As(err, &newer):
		return fmt.Errorf("cannot use the database %s: %w", where, newer)
	}
	return fmt.Errorf("cannot open the database %s: %w (%s)", where, err, sourceOf(choice))
}

// sourceOf says where the database's name came from.
func sourceOf(choice dbpath.Choice) string {
	switch choice.Source {
	case dbpath.FromFlag:
		return "named by --db"
	case dbpath.FromEnv:
		return "named by " + dbpath.EnvVar
	}
	return "the default location: neither --db nor " + dbpath.EnvVar + " is set"
}

// chooseDatabaseHint tells how to name the right database, or create one.
func chooseDatabaseHint(choice dbpath.Choice) string {
	if choice.Source == dbpath.FromDefault {
		return fmt.Sprintf("that is the default location, used because neither --db nor %s is set (a sudo that drops the environment does this): pass --db with the server's database, or set %s; to create a new one there, run 'dealctl admin migrate --db %s'",
			dbpath.EnvVar, dbpath.EnvVar, shellQuote(choice.DSN))
	}
	return fmt.Sprintf("it was %s: check the name, or create the database with 'dealctl admin migrate --db %s'",
		sourceOf(choice), shellQuote(dbpath.Redact(choice.DSN)))
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
