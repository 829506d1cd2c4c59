package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/cmd/dbopen"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/gctune"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// migrateFilesOptions are what `admin files migrate` works from.
type migrateFilesOptions struct {
	runOptions
	To       string // s3://… or "db"
	Progress bool   // a redrawn progress bar (stderr is a terminal) rather than a line per file
}

func newAdminFilesMigrateCmd(o *adminOptions) *cobra.Command {
	m := &migrateFilesOptions{}
	cmd := &cobra.Command{
		Use:   "migrate --to s3://BUCKET/PREFIX?… | --to db",
		Short: "Move file bytes between the database and an object store",
		Long: `Move every file's bytes from the database to the object store --to names,
or back (--to db, from the store --files names).

Each content is copied, then read back from where it went and its SHA-256
checked; only then is it recorded there and removed from where it was. An
interrupted run loses nothing: run it again and it goes on, skipping what
is already in place with the right hash. Servers may serve meanwhile: a file
is served from wherever it is recorded. Objects are left in the store after
--to db (remove them once no server uses the store).

A progress bar is drawn on a terminal; otherwise a line per file goes to
standard error. The totals go to standard output (-o json for JSON).`,
		Example: `  dealctl admin files migrate --to 's3://deal-files/prod?region=eu-west-1'
  dealctl admin files migrate --to db --files 's3://deal-files/prod?region=eu-west-1'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if m.To == "" {
				return cmdutil.UsageErrorf("--to is required: s3://BUCKET/PREFIX?… or db")
			}
			m.runOptions = o.runOptions(cmd)
			var err error
			if m.AsJSON, err = o.asJSON(cmd); err != nil {
				return err
			}
			m.Progress = o.IO != nil && o.IO.IsStderrTTY()
			return adminFilesMigrateRun(cmd.Context(), m)
		},
	}
	cmd.Flags().StringVar(&m.To, "to", "", "where the bytes go: s3://BUCKET/PREFIX?endpoint=URL&region=REGION, or db")
	return cmd
}

// migrateTotals is what a run did.
type migrateTotals struct {
	Moved   int   `json:"moved"`   // copied and verified
	Present int   `json:"present"` // found in place already, verified
	Bytes   int64 `json:"bytes"`
	Left    int   `json:"left"` // still to move (after an error)
}

func adminFilesMigrateRun(ctx context.Context, m *migrateFilesOptions) error {
	if err := m.checkStores(); err != nil {
		return err
	}
	gctune.ForLongRuns()
	boundMemory()
	db, err := m.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	var totals migrateTotals
	if m.To == "db" {
		purgeAbandonedUploads(ctx, db, m.ErrOut)
		objects, err := m.openFiles(ctx)
		if err != nil {
			return err
		}
		totals, err = migrateToDB(ctx, db, objects, m)
		if err != nil {
			return err
		}
	} else {
		objects, err := dbopen.OpenFiles(ctx, "--to", m.To)
		if err != nil {
			return err
		}
		if totals, err = migrateToObjects(ctx, db, objects, m); err != nil {
			return err
		}
	}
	if m.AsJSON {
		return display.WriteJSON(m.Out, totals)
	}
	fmt.Fprintf(m.Out, "Moved %d file contents (%s); %d were in place already.\n", totals.Moved, humanBytes(totals.Bytes), totals.Present)
	return nil
}

// migrateToObjects copies each content the database holds to objects,
// verifies it there, then drops the database's bytes.
func migrateToObjects(ctx context.Context, db *sqlstore.DB, objects *blob.S3, m *migrateFilesOptions) (migrateTotals, error) {
	todo, err := db.BlobsIn(ctx, store.BlobInDatabase)
	if err != nil {
		return migrateTotals{}, err
	}
	p := newMigrateProgress(m, todo, "to "+objects.String())
	var t migrateTotals
	for i, b := range todo {
		present, err := verifiedIn(ctx, objects, b)
		if err != nil {
			return t.left(len(todo) - i), fmt.Errorf("checking %s in the object store: %w", b.SHA256, err)
		}
		if !present {
			if err := copyToObjects(ctx, db, objects, b); err != nil {
				return t.left(len(todo) - i), err
			}
			if ok, err := verifiedIn(ctx, objects, b); err != nil || !ok {
				return t.left(len(todo) - i), fmt.Errorf("%s: the copy in the object store does not read back with its hash (%v); the database keeps its bytes", b.SHA256, err)
			}
			t.Moved++
		} else {
			t.Present++
		}
		if err := db.MovedToObjectStore(ctx, b.SHA256); err != nil {
			return t.left(len(todo) - i), err
		}
		t.Bytes += b.Size
		p.done(b, present)
	}
	p.finish()
	return t, nil
}

func copyToObjects(ctx context.Context, db *sqlstore.DB, objects *blob.S3, b blob.Info) error {
	rc, _, err := db.OpenBlob(ctx, b.SHA256)
	if err != nil {
		return err
	}
	defer rc.Close()
	if err := objects.PutVerified(ctx, rc, b); err != nil {
		if errors.Is(err, blob.ErrChanged) {
			return fmt.Errorf("%s: the database's bytes do not hash to their name: the database is damaged; nothing was moved for it", b.SHA256)
		}
		return fmt.Errorf("%s: %w", b.SHA256, err)
	}
	return nil
}

// verifiedIn reports whether store holds b's bytes, read back whole and
// hashed; a store holding other bytes under its name is an error.
func verifiedIn(ctx context.Context, s blob.Store, b blob.Info) (bool, error) {
	rc, _, err := s.Open(ctx, b.SHA256)
	if blob.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer rc.Close()
	got, err := blob.Hash(rc)
	if err != nil {
		return false, err
	}
	if got != b {
		return false, fmt.Errorf("it holds %d bytes hashing to %s, not %d bytes hashing to %s", got.Size, got.SHA256, b.Size, b.SHA256)
	}
	return true, nil
}

// migrateToDB copies each content in objects back into the database,
// which checks its hash as it stores it. Objects stay in the store.
func migrateToDB(ctx context.Context, db *sqlstore.DB, objects *blob.S3, m *migrateFilesOptions) (migrateTotals, error) {
	todo, err := db.BlobsIn(ctx, store.BlobInObjectStore)
	if err != nil {
		return migrateTotals{}, err
	}
	p := newMigrateProgress(m, todo, "to the database")
	var t migrateTotals
	for i, b := range todo {
		if err := copyToDB(ctx, db, objects, b); err != nil {
			return t.left(len(todo) - i), err
		}
		t.Moved++
		t.Bytes += b.Size
		p.done(b, false)
	}
	p.finish()
	return t, nil
}

func copyToDB(ctx context.Context, db *sqlstore.DB, objects *blob.S3, b blob.Info) error {
	rc, _, err := objects.Open(ctx, b.SHA256)
	if err != nil {
		return fmt.Errorf("%s: %w", b.SHA256, err)
	}
	defer rc.Close()
	got, err := db.PutBlob(ctx, rc)
	if err != nil {
		return fmt.Errorf("%s: %w", b.SHA256, err)
	}
	if got != b {
		return fmt.Errorf("%s: the object store holds %d bytes hashing to %s under that name: left in the object store", b.SHA256, got.Size, got.SHA256)
	}
	return nil
}

func (t migrateTotals) left(n int) migrateTotals { t.Left = n; return t }

// migrateProgress reports a run: a bar redrawn on a terminal, else a
// plain line per content.
type migrateProgress struct {
	out        io.Writer
	bar        bool
	what       string
	total      int
	totalBytes int64
	n          int
	bytes      int64
	started    time.Time
}

func newMigrateProgress(m *migrateFilesOptions, todo []blob.Info, what string) *migrateProgress {
	p := &migrateProgress{out: m.ErrOut, bar: m.Progress, what: what, total: len(todo), started: time.Now()}
	for _, b := range todo {
		p.totalBytes += b.Size
	}
	if !p.bar {
		fmt.Fprintf(p.out, "moving %d file contents (%s) %s\n", p.total, humanBytes(p.totalBytes), what)
	}
	return p
}

func (p *migrateProgress) done(b blob.Info, present bool) {
	p.n++
	p.bytes += b.Size
	if !p.bar {
		how := "moved"
		if present {
			how = "in place already"
		}
		fmt.Fprintf(p.out, "%d/%d %s %s (%s)\n", p.n, p.total, b.SHA256, how, humanBytes(b.Size))
		return
	}
	const width = 30
	filled := width
	if p.totalBytes > 0 {
		filled = int(p.bytes * width / p.totalBytes)
	}
	bar := make([]byte, width)
	for i := range bar {
		bar[i] = '.'
		if i < filled {
			bar[i] = '#'
		}
	}
	fmt.Fprintf(p.out, "\r[%s] %d/%d files, %s of %s", bar, p.n, p.total, humanBytes(p.bytes), humanBytes(p.totalBytes))
}

func (p *migrateProgress) finish() {
	if p.bar && p.total > 0 {
		fmt.Fprintln(p.out)
	}
}

// humanBytes is n in B, KiB, MiB or GiB.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 2; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMG"[exp])
}

// checkStores checks --to and --files before the database is opened.
func (m *migrateFilesOptions) checkStores() error {
	if m.To != "db" {
		return dbopen.CheckFilesURL("--to", m.To)
	}
	if m.Files == "" {
		return cmdutil.UsageErrorf("--to db moves bytes back from an object store: name it with --files s3://…")
	}
	return dbopen.CheckFilesURL(m.origins.Of("files"), m.Files)
}
