package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/config"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/gctune"
	"github.com/dealctl/dealctl/tui"
)

// TUIOptions are `tui`'s inputs.
type TUIOptions struct {
	cmdEnv
	DownloadDir string
	Env         config.Env // the Factory's: XDG_DOWNLOAD_DIR is read through it
}

// NewCmdTUI is `dealctl tui`.
func NewCmdTUI(f *Factory) *cobra.Command {
	return newCmdTUI(f)
}

func newCmdTUI(f *Factory) *cobra.Command {
	opts := &TUIOptions{cmdEnv: f.env(), Env: f.Env}
	cmd := &cobra.Command{
		Use:   "tui",
		Short: "Work the request list full-screen, from the keyboard",
		Long: `Opens the chosen deal's request list full-screen: the list with sections as
headings, the request under the cursor in a detail pane (body, files, the
conversation), and a status bar with counts, the filter and the rate budget.
The list is read again every 30 s, cheaply (If-None-Match).

Keys: arrows or j/k, PgUp/PgDn, g/G move; / searches number, title,
body and requester (an exact number jumps to it); f cycles the status filter, m shows
mine, ! overdue, p cycles priority, c category, o the sort order; tab
switches panes; enter reads the conversation; a answers (ctrl+s sends);
s moves the status; d downloads a file; D switches deal; r refreshes;
? lists every key; q quits.

Files saved with d go to --download-dir, by default your Downloads folder
($XDG_DOWNLOAD_DIR, else ~/Downloads, made if missing); the status line
shows the full path of each file saved.

It needs a terminal; scripts use 'dealctl requests ls' instead.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return tuiRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.DownloadDir, "download-dir", "", "directory d saves files into (default $XDG_DOWNLOAD_DIR or ~/Downloads)")
	_ = cmd.MarkFlagDirname("download-dir")
	return cmd
}

func tuiRun(ctx context.Context, o *TUIOptions) error {
	gctune.ForLongRuns()
	// Without a terminal the program would draw into a pipe and wait on
	// keys that never come: fail at once and point at the script-friendly
	// command.
	if !o.IO.CanPrompt() {
		return cmdutil.UsageErrorf("dealctl tui needs a terminal on stdin and stdout: in scripts use 'dealctl requests ls' (with --json for programs)")
	}
	dir, err := downloadDir(o.DownloadDir, o.Env)
	if err != nil {
		return err
	}
	o.DownloadDir = dir
	c, err := o.Client()
	if err != nil {
		return err
	}
	opts, err := tuiOptions(ctx, o, c)
	if err != nil {
		return err
	}
	return tui.Run(ctx, opts, o.IO.In, o.IO.Out)
}

// downloadDir is where d saves files, as an absolute path, so that the
// status line can say exactly where a file went. A folder the user named
// must exist; the default, the user's Downloads folder, is made when the
// first file is saved (a fresh account or container has none), not when
// the program opens: nothing is written to disk until asked.
func downloadDir(flag string, env config.Env) (string, error) {
	dir := flag
	if dir == "" {
		dir, _ = env("XDG_DOWNLOAD_DIR")
		if dir == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", cmdutil.UsageErrorf("no home folder for the default --download-dir (%v): name a folder with --download-dir", err)
			}
			dir = filepath.Join(home, "Downloads")
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", cmdutil.UsageErrorf("--download-dir %s: %v", dir, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case err == nil && !fi.IsDir():
		return "", cmdutil.UsageErrorf("--download-dir %s: not a directory", dir)
	case err != nil && (flag != "" || !errors.Is(err, fs.ErrNotExist)):
		return "", cmdutil.UsageErrorf("--download-dir %s: not a directory", dir)
	}
	return abs, nil
}

// tuiOptions resolves the chosen deal and sets the program up around c.
// No deal chosen yet is not an error here: the program opens on the deal
// picker.
func tuiOptions(ctx context.Context, o *TUIOptions, c *client.Client) (tui.Options, error) {
	var deal *api.Deal
	var seat *api.Seat
	if ref, err := o.DealRef(); err == nil {
		s, err := resolveDeal(ctx, c, ref)
		if err != nil {
			return tui.Options{}, err
		}
		deal = &s.Deal
		// A deal named by id was read with the seat: the program's first
		// load need not read it again.
		if s.detail != nil {
			seat = &s.detail.Me
		}
	}
	meter := &tui.RateMeter{}
	return tui.Options{
		Client:       c.WithResponseObserver(meter.Observe),
		Deal:         deal,
		Seat:         seat,
		Color:        o.IO.ColorEnabled(),
		RefreshEvery: tui.RefreshPeriod,
		Rate:         meter,
		Now:          o.Now,
		Describe:     describeError,
		Download:     tuiDownloader(c, o.DownloadDir),
	}, nil
}

// tuiDownloader saves files the way `dealctl download` does (fresh link,
// temporary file, size check, rename), without its progress bar, which
// would draw over the screen.
func tuiDownloader(c *client.Client, dir string) func(context.Context, api.Deal, string, api.File) (string, error) {
	return func(ctx context.Context, deal api.Deal, request string, f api.File) (string, error) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("making the download folder: %w (name another with --download-dir)", err)
		}
		d, err := downloadOne(ctx, c, deal.ID, dir, nil, requestFile{Request: request, File: f}, nil, false)
		if errors.Is(err, errNotDownloadable) {
			return "", fmt.Errorf("not downloadable yet (still being scanned): try again later")
		}
		var exists *fileExistsError
		if errors.As(err, &exists) {
			return "", fmt.Errorf("%s exists with other content: nothing was overwritten; move it aside and download again", exists.path)
		}
		if err != nil {
			return "", err
		}
		// The status line shows this: the full path, wherever the
		// program was started.
		if abs, err := filepath.Abs(d.Path); err == nil {
			return abs, nil
		}
		return d.Path, nil
	}
}
