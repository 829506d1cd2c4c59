package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
)

// DownloadOptions are `download`'s inputs.
type DownloadOptions struct {
	cmdEnv
	Ref string // a request (number or id) or a file's version id
	Dir string
	All bool
}

// NewCmdDownload is `dealctl download REQUEST|VERSION_ID [-o DIR] [--all]`.
func NewCmdDownload(f *Factory, runF func(*DownloadOptions) error) *cobra.Command {
	opts := &DownloadOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:   "download {REQUEST | VERSION_ID | --all} [-o DIR]",
		Short: "Download the files given in answer",
		Long: `Downloads every file of a request, one file by version id, or with --all
every file on the deal. Each link is fetched at once (links expire within
a minute, and one that expired first is asked for again), streamed to a
temporary file, checked against the announced size and renamed into place.
Files not yet downloadable are skipped with a warning; links are listed
by 'dealctl files ls', not downloaded.`,
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeRequests(f, api.KindRequest),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Ref = args[0]
			}
			if (opts.Ref == "") == !opts.All {
				return usageErrorf("give a REQUEST or VERSION_ID, or --all")
			}
			if runF != nil {
				return runF(opts)
			}
			return downloadRun(cmd.Context(), opts)
		},
	}
	// Named "output" so that it shadows the global -o/--output format flag
	// here: the contract spells the directory -o.
	cmd.Flags().StringVarP(&opts.Dir, "output", "o", ".", "directory to write into")
	cmd.Flags().BoolVar(&opts.All, "all", false, "every file on the deal")
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
	// A folder that does not exist yet is made, as `mkdir -p` would; a
	// path that is a file is a mistake.
	if fi, err := os.Stat(o.Dir); err == nil && !fi.IsDir() {
		return usageErrorf("-o %s: is a file, not a folder: give a folder to save into", o.Dir)
	} else if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(o.Dir, 0o755); err != nil {
			return fmt.Errorf("cannot create the folder %s: %w", o.Dir, err)
		}
	} else if err != nil {
		return fmt.Errorf("cannot use the folder %s: %w", o.Dir, err)
	}
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	files, err := filesToDownload(ctx, s, o.Ref)
	if err != nil {
		return err
	}
	// A bar for each big file, where stderr is a terminal to draw it on.
	var progress io.Writer
	if o.IO.IsStderrTTY() {
		progress = o.IO.ErrOut
	}
	var done []downloaded
	used := map[string]bool{}
	failed := 0
	for _, f := range files {
		name := deref(f.Name)
		if f.Kind == api.FileKindLink {
			if o.Ref != "" && !o.All {
				o.Infof("skipping %s: a link, not a file (%s)", orDash(name), deref(f.URL))
			}
			continue
		}
		if !f.Downloadable {
			o.Warnf("skipping %s on %s: not downloadable yet (still being scanned)", orDash(name), f.Request)
			continue
		}
		d, err := downloadOne(ctx, s.c, s.Deal.ID, o.Dir, progress, f, used)
		if errors.Is(err, errNotDownloadable) {
			o.Warnf("skipping %s on %s: not downloadable yet", orDash(name), f.Request)
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			failed++
			fmt.Fprintf(o.IO.ErrOut, "dealctl: download of %s on %s failed: %s\n", orDash(name), f.Request, describeError(err))
			continue
		}
		done = append(done, *d)
	}
	if done == nil {
		done = []downloaded{}
	}
	p := o.Printer()
	if err := p.Print(output.View{Data: done, Human: func(w io.Writer) error {
		for _, d := range done {
			if o.IO.IsStdoutTTY() {
				fmt.Fprintf(w, "Downloaded %s (%s) to %s\n", d.Name, output.HumanSize(d.Size), d.Path)
			} else {
				fmt.Fprintln(w, d.Path)
			}
		}
		return nil
	}}); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d downloads failed: run the command again to retry them", failed, failed+len(done))
	}
	return nil
}

// filesToDownload finds the files ref names: a version id, else a request.
func filesToDownload(ctx context.Context, s *dealScope, ref string) ([]requestFile, error) {
	if ref == "" {
		return dealFiles(ctx, s, "")
	}
	if looksLikeID(ref) {
		all, err := dealFiles(ctx, s, "")
		if err != nil {
			return nil, err
		}
		for _, f := range all {
			if f.VersionID == ref {
				return []requestFile{f}, nil
			}
		}
	}
	files, err := dealFiles(ctx, s, ref)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, notFoundErrorf("%s has no files: see 'dealctl files ls'", ref)
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
func downloadOne(ctx context.Context, c *client.Client, dealID, dir string, progress io.Writer, f requestFile, used map[string]bool) (*downloaded, error) {
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
			pw := &progressWriter{w: tmp, out: progress, name: link.Filename, total: link.Size}
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
	name := safeFileName(link.Filename, deref(f.Name), f.VersionID)
	if used[name] {
		// Two requests answered with files of one name: keep both.
		name = f.Request + "-" + name
	}
	if used != nil {
		used[name] = true
	}
	dst := filepath.Join(dir, name)
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return nil, err
	}
	return &downloaded{Request: f.Request, VersionID: f.VersionID, Name: name, Path: dst, Size: n}, nil
}

// safeFileName keeps a server-given name inside the target directory.
func safeFileName(names ...string) string {
	for _, n := range names {
		n = filepath.Base(strings.ReplaceAll(n, "\\", "/"))
		if n != "" && n != "." && n != ".." && n != "/" && !strings.HasPrefix(n, ".") {
			return n
		}
	}
	return "download"
}

// progressWriter draws a one-line progress bar on stderr.
type progressWriter struct {
	w              io.Writer
	out            io.Writer
	name           string
	total, written int64
	lastPct        int
}

func (p *progressWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.written += int64(n)
	if pct := int(p.written * 100 / max(p.total, 1)); pct != p.lastPct {
		p.lastPct = pct
		bar := strings.Repeat("█", pct/5) + strings.Repeat("░", 20-pct/5)
		fmt.Fprintf(p.out, "\r%s %s %3d%% of %s", p.name, bar, pct, output.HumanSize(p.total))
	}
	return n, err
}

func (p *progressWriter) done() { fmt.Fprintln(p.out) }
