package admin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// adminBackupOptions are what `admin backup` works from.
type adminBackupOptions struct {
	runOptions
	Path string // the copy to write; it must not exist yet
}

func newAdminBackupCmd(o *adminOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "backup PATH",
		Short: "Write a consistent copy of the embedded database, safe while the server runs",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return adminBackupRun(cmd.Context(), &adminBackupOptions{runOptions: o.runOptions(cmd), Path: args[0]})
		},
	}
}

func adminBackupRun(ctx context.Context, o *adminBackupOptions) error {
	if _, err := os.Stat(o.Path); err == nil {
		return cmdutil.UsageErrorf("%s already exists: choose a new file name, or remove it first", o.Path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	db, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Backup(ctx, o.Path); err != nil {
		return fmt.Errorf("backup to %s failed: %w", o.Path, err)
	}
	_, err = fmt.Fprintf(o.Out, "Backed up to %s.\n", o.Path)
	return err
}

// adminMigrateOptions are what `admin migrate` works from.
type adminMigrateOptions struct {
	runOptions
}

func newAdminMigrateCmd(o *adminOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Create or bring the database schema up to date, saying what was applied",
		Long: `Create the schema of a new database, or apply the migrations an older one has
not seen, and say what was applied: from which version to which, the
migrations by name, and how long it took; a current database is left alone.

It creates a database only where --db or DEALCTL_DB names one. A database
migrated by a newer dealctl is refused (upgrade dealctl instead).`,
		Example: `  dealctl admin migrate --db /var/lib/dealctl/deals.db
  dealctl admin migrate --db "$DEALCTL_DB" -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ro := o.runOptions(cmd)
			var err error
			if ro.AsJSON, err = o.asJSON(cmd); err != nil {
				return err
			}
			return adminMigrateRun(cmd.Context(), &adminMigrateOptions{runOptions: ro})
		},
	}
}

// migrateResult is `admin migrate -o json`.
type migrateResult struct {
	Dialect       string   `json:"dialect"`
	SchemaVersion int      `json:"schema_version"`
	FromVersion   int      `json:"from_version"`
	Created       bool     `json:"created"`
	Applied       []string `json:"applied"`
	TookMS        float64  `json:"took_ms"`
}

func adminMigrateRun(ctx context.Context, o *adminMigrateOptions) error {
	// Opening applies the migrations; the summary is printed here, on
	// stdout, not as the note other admin commands write to stderr.
	db, err := o.openDB(ctx, nil, true)
	if err != nil {
		return err
	}
	defer db.Close()
	r := db.Migrated()
	if o.AsJSON {
		return display.WriteJSON(o.Out, migrateResult{Dialect: db.Dialect(), SchemaVersion: r.To, FromVersion: r.From, Created: r.Created(),
			Applied: append([]string{}, r.Applied...), TookMS: float64(r.Took.Microseconds()) / 1000})
	}
	_, err = fmt.Fprintln(o.Out, migrationSummary(r, db.Dialect()))
	return err
}

// migrationSummary is one line saying what a migration run did.
func migrationSummary(r sqlstore.MigrationReport, dialect string) string {
	took := r.Took.Round(time.Millisecond)
	if r.Took < time.Millisecond {
		took = r.Took.Round(time.Microsecond)
	}
	switch {
	case len(r.Applied) == 0:
		return fmt.Sprintf("Schema version %d (%s): already up to date, nothing applied.", r.To, dialect)
	case r.Created():
		return fmt.Sprintf("Created the schema of a new database (%s): version 0 to %d, applied %s in %s.", dialect, r.To, strings.Join(r.Applied, ", "), took)
	}
	return fmt.Sprintf("Upgraded the schema (%s) from version %d to %d: applied %s in %s.", dialect, r.From, r.To, strings.Join(r.Applied, ", "), took)
}
