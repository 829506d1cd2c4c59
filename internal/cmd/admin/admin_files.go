package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
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

// attachOptions are what `admin files attach` works from.
type attachOptions struct {
	runOptions
	Deal, Request, Message, Name, ContentType string
	Unscanned                                 bool
	Paths                                     []string  // the files to attach; "-" is Stdin
	Stdin                                     io.Reader // read for "-"
}

func newAdminFilesCmd(o *adminOptions) *cobra.Command {
	cmd := &cobra.Command{Use: "files", Short: "Put files on answers (the API has no upload)"}
	cmd.AddCommand(newAdminFilesAttachCmd(o), newAdminFilesMigrateCmd(o))
	return cmd
}

func newAdminFilesAttachCmd(o *adminOptions) *cobra.Command {
	a := &attachOptions{}
	cmd := &cobra.Command{
		Use:   "attach --deal DEAL --request NUMBER [--message ID] FILE...",
		Short: "Attach files to an answer",
		Long: `Attach files to a message of a request: the one --message names, else the
request's newest response that both sides can see. Files are downloadable at
once unless --unscanned marks them as still being scanned.

Each file streams into the store (the database, or the object store --files
names) in constant memory whatever its size, is hashed (SHA-256) on the way
and is stored once however often it is attached. FILE - reads standard
input (give --name).`,
		Example: `  dealctl admin files attach --deal Falcon --request 2.3 accounts-2025.pdf
  dealctl admin files attach -d Falcon --request 1.1 --message 0192... scan.pdf --unscanned`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.Deal == "" || a.Request == "" {
				return cmdutil.UsageErrorf("--deal and --request are required")
			}
			if slices.Contains(args, "-") && a.Name == "" {
				return cmdutil.UsageErrorf("FILE - reads standard input: give its name with --name")
			}
			if a.Name != "" && len(args) > 1 {
				return cmdutil.UsageErrorf("--name renames one file; attach %d files one at a time to name them", len(args))
			}
			a.runOptions = o.runOptions(cmd)
			var err error
			if a.AsJSON, err = o.asJSON(cmd); err != nil {
				return err
			}
			a.Paths = args
			a.Stdin = cmd.InOrStdin()
			return adminAttachRun(cmd.Context(), a)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&a.Deal, "deal", "d", "", "deal: id, codename or name")
	f.StringVar(&a.Request, "request", "", "request number (like 2.3) or id")
	f.StringVar(&a.Message, "message", "", "message id (default: the request's newest visible response)")
	f.StringVar(&a.Name, "name", "", "file name to show (default: the file's base name)")
	f.StringVar(&a.ContentType, "content-type", "", "media type (default: guessed from the name)")
	f.BoolVar(&a.Unscanned, "unscanned", false, "mark as not yet scanned: listed, but not downloadable")
	return cmd
}

func adminAttachRun(ctx context.Context, a *attachOptions) error {
	// Files stream through a few fixed buffers: memory should follow
	// those, not the start-up collector setting.
	gctune.ForLongRuns()
	boundMemory()
	db, err := a.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	purgeAbandonedUploads(ctx, db, a.ErrOut)
	d, err := findDeal(ctx, db, a.Deal)
	if err != nil {
		return err
	}
	r, err := findRequest(ctx, db, d, a.Request)
	if err != nil {
		return err
	}
	m, err := attachTarget(ctx, db, d, r, a.Message)
	if err != nil {
		return err
	}
	objects, err := a.openFiles(ctx)
	if err != nil {
		return err
	}
	var attached []map[string]any
	for _, path := range a.Paths {
		f, err := attachOne(ctx, db, objects, m, path, a)
		if err != nil {
			return err
		}
		attached = append(attached, map[string]any{"version_id": f.VersionID, "name": *f.Name, "size": *f.Size,
			"content_type": *f.ContentType, "downloadable": f.Downloadable(), "message_id": m.ID})
		if !a.AsJSON {
			fmt.Fprintf(a.Out, "Attached %s (%d bytes) to request %s, message %s: version %s.\n", *f.Name, *f.Size, r.Number, m.ID, f.VersionID)
		}
	}
	if a.AsJSON {
		return display.WriteJSON(a.Out, attached)
	}
	return nil
}

// attachTarget finds the message files go on.
func attachTarget(ctx context.Context, st store.Store, d store.Deal, r store.Request, messageID string) (store.Message, error) {
	if messageID != "" {
		m, err := st.Message(ctx, d.ID, messageID)
		if errors.Is(err, store.ErrNotFound) || (err == nil && m.RequestID != r.ID) {
			return m, cmdutil.WithExit(cmdutil.ExitNotFound, fmt.Errorf("request %s has no message %s (list them with 'dealctl messages ls %s')", r.Number, messageID, r.Number))
		}
		return m, err
	}
	msgs, err := st.Messages(ctx, d.ID, r.ID)
	if err != nil {
		return store.Message{}, err
	}
	m, ok := newestAnswer(msgs)
	if !ok {
		return m, cmdutil.WithExit(cmdutil.ExitNotFound, fmt.Errorf("request %s has no answer to attach files to: post one first (dealctl answer %s -m ...) or pass --message ID", r.Number, r.Number))
	}
	return m, nil
}

// attachOne streams one file into the store and lists it on m.
func attachOne(ctx context.Context, db *sqlstore.DB, objects *blob.S3, m store.Message, path string, a *attachOptions) (store.File, error) {
	src, err := openAttachment(path, a.Stdin)
	if err != nil {
		return store.File{}, err
	}
	defer src.Close()
	var info blob.Info
	if objects != nil {
		if info, err = objects.Put(ctx, src); err == nil {
			err = db.RecordObjectBlob(ctx, info)
		}
	} else {
		info, err = db.PutBlob(ctx, src)
	}
	if errors.Is(err, blob.ErrChanged) {
		return store.File{}, fmt.Errorf("cannot attach %s: it changed while being stored; attach it again once nothing writes to it", path)
	}
	if err != nil {
		return store.File{}, fmt.Errorf("cannot attach %s: %w", path, err)
	}
	name := a.Name
	if name == "" {
		name = filepath.Base(path)
	}
	ct := a.ContentType
	if ct == "" {
		if ct = mime.TypeByExtension(filepath.Ext(name)); ct == "" {
			ct = "application/octet-stream"
		}
	}
	f := store.File{DealID: m.DealID, MessageID: m.ID, Name: &name, ContentType: &ct, Scanned: !a.Unscanned, SHA256: info.SHA256, Size: &info.Size}
	f, err = db.AttachBlob(ctx, f)
	if err != nil {
		return f, fmt.Errorf("cannot attach %s: %w", path, err)
	}
	return f, nil
}

// purgeAbandonedUploads removes the chunks that attaches into the
// database killed mid-file left, once older than any live attach can be
// (sqlstore.PurgeAbandonedUploads). Attaches and migrations to the
// database are what leave them, so each run clears what earlier ones
// left. It is housekeeping: a failure is reported, not fatal.
func purgeAbandonedUploads(ctx context.Context, db *sqlstore.DB, errOut io.Writer) {
	n, err := db.PurgeAbandonedUploads(ctx, time.Now())
	switch {
	case err != nil:
		fmt.Fprintf(errOut, "warning: could not remove what interrupted attaches left in the database: %v\n", err)
	case n > 0:
		fmt.Fprintf(errOut, "Removed the partial bytes of %d attaches interrupted over a day ago.\n", n)
	}
}

// boundMemory sets a soft memory limit for a command that streams large
// files, so that the collector returns what each buffer leaves behind
// rather than letting the heap grow (unless GOMEMLIMIT says otherwise).
func boundMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(48 << 20)
	}
}

// openAttachment opens a file to attach, or standard input for "-".
func openAttachment(path string, stdin io.Reader) (io.ReadCloser, error) {
	if path == "-" {
		return io.NopCloser(stdin), nil
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, cmdutil.WithExit(cmdutil.ExitNotFound, fmt.Errorf("file %s does not exist", path))
	case err != nil:
		return nil, err
	case info.IsDir():
		return nil, cmdutil.UsageErrorf("%s is a folder; attach files", path)
	}
	return os.Open(path)
}

// openFiles connects to the object store --files names; nil without it.
func (o *adminOptions) openFiles(ctx context.Context) (*blob.S3, error) {
	if o.Files == "" {
		return nil, nil
	}
	return dbopen.OpenFiles(ctx, o.origins.Of("files"), o.Files)
}
