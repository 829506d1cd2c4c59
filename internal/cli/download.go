package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/english"
	"github.com/dealctl/dealctl/internal/safepath"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// DownloadOptions are `download`'s inputs.
type DownloadOptions struct {
	cmdEnv
	Ref   string // a request (number or id) or a file's version id
	Dir   string
	All   bool
	Force bool // replace a file of the same name whose content differs
}

// NewCmdDownload is `dealctl download REQUEST|VERSION_ID [-o DIR] [--all]`.
func NewCmdDownload(f *Factory) *cobra.Command {
	opts := &DownloadOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:   "download {REQUEST | VERSION_ID | --all} [-o DIR]",
		Short: "Download the files given in answer",
		Long: `Downloads every file of a request, one file by version id, or with --all
every file on the deal. Each link is fetched at once (links expire within
a minute, and one that expired first is asked for again), streamed to a
temporary file, checked against the announced size and renamed into place.
Files not yet downloadable are skipped with a warning (a file named by
its version id fails, exit 5); links are listed by 'dealctl files ls',
not downloaded. A request with nothing to save fails: only links, exit 3;
only files still being scanned, exit 5. The folder is made when the
first file is saved.

A file of the same name already in the folder is left as it is when its
content is the same, and never overwritten when it differs: that file
fails (exit 5) until it is moved aside, or --force replaces it.`,
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeRequests(f, api.KindRequest),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Ref = args[0]
			}
			if (opts.Ref == "") == !opts.All {
				return cmdutil.UsageErrorf("give a REQUEST or VERSION_ID, or --all")
			}
			return downloadRun(cmd.Context(), opts)
		},
	}
	// Named "output" so that it shadows the global -o/--output format flag
	// here: the contract spells the directory -o.
	cmd.Flags().StringVarP(&opts.Dir, "output", "o", ".", "directory to write into")
	cmd.Flags().BoolVar(&opts.All, "all", false, "every file on the deal")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "replace files of the same name whose content differs")
	_ = cmd.MarkFlagDirname("output")
	return cmd
}

// downloaded is one file written, as --json prints it.
type downloaded struct {
	Request   string `json:"request"`
	VersionID string `json:"version_id"`
	Name      string `json:"name"`
	Path      string `json:"path"`
	Size      int64  `json:"size"`
}

func downloadRun(ctx context.Context, o *DownloadOptions) error {
	if err := checkDownloadFolder(o.Dir); err != nil {
		return err
	}
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	files, err := filesToDownload(ctx, s, o.Ref)
	if err != nil {
		return err
	}
	// One file named by its version id: not saving it is a failure, not a
	// warning.
	namedOne := api.IsID(o.Ref) && len(files) == 1 && files[0].VersionID == o.Ref
	if namedOne && files[0].Kind != api.FileKindLink && !files[0].Downloadable {
		return notDownloadableError(files[0])
	}
	if !o.All && !namedOne {
		if err := nothingToFetch(o.Ref, files); err != nil {
			return err
		}
	}
	tally, err := o.saveFiles(ctx, s, files, namedOne)
	if err != nil {
		return err
	}
	if err := o.printDownloaded(tally.done); err != nil {
		return err
	}
	return tally.err()
}

// downloadTally is what a run saved, and how many files it did not.
type downloadTally struct {
	done      []downloaded
	failed    int // the download failed
	conflicts int // a file of the same name, with other content, was in the way
}

// err is the run's failure, if any: a failed download (exit 1), else a
// file left as it was rather than overwritten (exit 5).
func (t *downloadTally) err() error {
	if t.failed > 0 {
		return fmt.Errorf("%d of %d downloads failed: run the command again to retry them", t.failed, t.failed+t.conflicts+len(t.done))
	}
	if t.conflicts > 0 {
		return cmdutil.WithExit(cmdutil.ExitConflict, fmt.Errorf("%d %s not saved: a file of the same name exists with other content (edited locally?): move it aside, or pass --force to replace it",
			t.conflicts, english.Plural(t.conflicts, "file was", "files were")))
	}
	return nil
}

// saveFiles downloads files into o.Dir, made before the first is saved.
func (o *DownloadOptions) saveFiles(ctx context.Context, s *dealScope, files []requestFile, namedOne bool) (*downloadTally, error) {
	// A bar for each big file, where stderr is a terminal to draw it on.
	var progress io.Writer
	if o.IO.IsStderrTTY() {
		progress = o.IO.ErrOut
	}
	t := &downloadTally{done: []downloaded{}}
	used := map[string]bool{}
	folderMade := false
	for _, f := range files {
		if !o.fetchable(f) {
			continue
		}
		if !folderMade {
			if err := os.MkdirAll(o.Dir, 0o755); err != nil {
				return nil, fmt.Errorf("cannot create the folder %s: %w", o.Dir, err)
			}
			folderMade = true
		}
		d, err := downloadOne(ctx, s.c, s.Deal.ID, o.Dir, progress, f, used, o.Force)
		if err := o.record(ctx, t, f, d, err, namedOne); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// fetchable reports whether f is a file to fetch now, and says why not
// when it is not: a link, or a file still being scanned.
func (o *DownloadOptions) fetchable(f requestFile) bool {
	name := orDash(deref(f.Name))
	switch {
	case f.Kind == api.FileKindLink:
		if o.Ref != "" && !o.All {
			o.Infof("skipping %s: a link, not a file (%s)", name, deref(f.URL))
		}
		return false
	case !f.Downloadable:
		o.Warnf("skipping %s on %s: not downloadable yet (still being scanned)", name, f.Request)
		return false
	}
	return true
}

// record adds the outcome of downloading f to t, saying what went wrong
// on stderr; an error that ends the run is returned.
func (o *DownloadOptions) record(ctx context.Context, t *downloadTally, f requestFile, d *downloaded, err error, namedOne bool) error {
	name := orDash(deref(f.Name))
	var exists *fileExistsError
	switch {
	case err == nil:
		t.done = append(t.done, *d)
	case errors.Is(err, errNotDownloadable) && namedOne:
		return notDownloadableError(f)
	case errors.Is(err, errNotDownloadable):
		o.Warnf("skipping %s on %s: not downloadable yet", name, f.Request)
	case errors.As(err, &exists):
		t.conflicts++
		fmt.Fprint(o.IO.ErrOut, termsafe.Text(fmt.Sprintf("dealctl: not saving %s on %s: %s already exists with other content: left as it is\n", name, f.Request, exists.path)))
	case ctx.Err() != nil:
		return ctx.Err()
	default:
		t.failed++
		fmt.Fprint(o.IO.ErrOut, termsafe.Text(fmt.Sprintf("dealctl: download of %s on %s failed: %s\n", name, f.Request, describeError(err))))
	}
	return nil
}

// printDownloaded lists the files saved: a sentence each on a terminal,
// their paths on a pipe.
func (o *DownloadOptions) printDownloaded(done []downloaded) error {
	return o.Printer().Print(output.View{Data: done, Human: func(w io.Writer) error {
		for _, d := range done {
			if o.IO.IsStdoutTTY() {
				fmt.Fprintf(w, "Downloaded %s (%s) to %s\n", d.Name, display.HumanSize(d.Size), d.Path)
			} else {
				fmt.Fprintln(w, d.Path)
			}
		}
		return nil
	}})
}

// checkDownloadFolder refuses a -o that is a file. A folder that does not
// exist yet is made once there is something to save, as `mkdir -p`
// would: a failed download leaves no empty folder behind.
func checkDownloadFolder(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return cmdutil.UsageErrorf("-o %s: is a file, not a folder: give a folder to save into", dir)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot use the folder %s: %w", dir, err)
	}
	return nil
}

// nothingToFetch fails a download of a request that has nothing to save:
// only links (exit 3), or files all still being scanned (exit 5), rather
// than exit 0 with nothing saved, which a script would take for success.
func nothingToFetch(ref string, files []requestFile) error {
	pending := 0
	for _, f := range files {
		switch {
		case f.Kind == api.FileKindLink:
		case f.Downloadable:
			return nil
		default:
			pending++
		}
	}
	if pending > 0 {
		return cmdutil.WithExit(cmdutil.ExitConflict, fmt.Errorf("nothing was saved: %s's %s still being scanned by the server: try again in a minute ('dealctl files ls %s' shows when %s ready)",
			ref, english.Plural(pending, "file is", "files are"), ref, english.Plural(pending, "it is", "they are")))
	}
	return cmdutil.NotFoundErrorf("%s has no files to download, only links: 'dealctl files ls %s' lists them", ref, ref)
}

// notDownloadableError is a file the user named that the server does not
// hand out yet.
func notDownloadableError(f requestFile) error {
	return cmdutil.WithExit(cmdutil.ExitConflict, fmt.Errorf("%s on %s is not downloadable yet (the server is still scanning it): nothing was saved; try again in a minute ('dealctl files ls %s' shows when it is ready)",
		orDash(deref(f.Name)), f.Request, f.Request))
}

// fileExistsError is a file of the same name, with other content, where a
// download would be saved.
type fileExistsError struct{ path string }

func (e *fileExistsError) Error() string {
	return e.path + " already exists with other content"
}

// filesToDownload finds the files ref names: a version id, else a request.
func filesToDownload(ctx context.Context, s *dealScope, ref string) ([]requestFile, error) {
	if ref == "" {
		return dealFiles(ctx, s, "")
	}
	if api.IsID(ref) {
		all, err := dealFiles(ctx, s, "")
		if err != nil {
			return nil, err
		}
		for _, f := range all {
			if f.VersionID == ref {
				return []requestFile{f}, nil
			}
		}
		if findRow(s.rows, ref) == nil {
			return nil, cmdutil.NotFoundErrorf("no request or file version %s on %s: see 'dealctl files ls'", ref, s.Deal.Codename)
		}
	}
	files, err := dealFiles(ctx, s, ref)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, cmdutil.NotFoundErrorf("%s has no files: see 'dealctl files ls'", ref)
	}
	return files, nil
}

var errNotDownloadable = errors.New("not downloadable")

// downloadOne fetches one file of deal dealID into dir, drawing a
// progress bar for a big file on progress unless it is nil. used holds the
// names saved so far by the same run, so that two files of one name are
// both kept; nil for a file saved alone. A link that expired before it was
// fetched (410, or 403 for a token past its time) is asked for again,
// once.
func downloadOne(ctx context.Context, c *client.Client, dealID, dir string, progress io.Writer, f requestFile, used map[string]bool, force bool) (*downloaded, error) {
	tmp, err := os.CreateTemp(dir, ".dealctl-*.part")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	defer tmp.Close()

	var link *api.DownloadLink
	var n int64
	for attempt := 0; ; attempt++ {
		link, err = c.DownloadLink(ctx, dealID, f.VersionID)
		if err != nil {
			if client.StatusOf(err) == http.StatusConflict {
				return nil, errNotDownloadable
			}
			return nil, err
		}
		if err := tmp.Truncate(0); err != nil {
			return nil, err
		}
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		var w io.Writer = tmp
		if progress != nil && link.Size > 1<<20 {
			pw := &progressWriter{w: tmp, out: progress, name: termsafe.Line(link.Filename), total: link.Size}
			defer pw.done()
			w = pw
		}
		n, err = c.FetchLink(ctx, link.URL, w)
		st := client.StatusOf(err)
		if attempt == 0 && (st == http.StatusGone || st == http.StatusForbidden) {
			continue
		}
		if err != nil {
			return nil, err
		}
		break
	}
	if n != link.Size {
		return nil, fmt.Errorf("got %d bytes of %s, the server announced %d: the transfer was cut short", n, link.Filename, link.Size)
	}
	// CreateTemp makes the file 0600; a download is an ordinary file.
	if err := tmp.Chmod(0o644); err != nil {
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	name := uniqueName(used, f, fileName(link.Filename, deref(f.Name), f.VersionID))
	dst, err := safepath.Join(dir, name)
	if err != nil {
		return nil, err
	}
	saved := &downloaded{Request: f.Request, VersionID: f.VersionID, Name: name, Path: dst, Size: n}
	if !force {
		same, err := sameContent(dst, tmp.Name())
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Nothing there yet.
		case err != nil:
			return nil, err
		case same:
			return saved, nil // already here, as it is on the server
		default:
			return nil, &fileExistsError{path: dst}
		}
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return nil, err
	}
	return saved, nil
}
