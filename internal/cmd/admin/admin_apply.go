package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/world"
)

// adminApplyOptions are what `admin apply` works from.
type adminApplyOptions struct {
	runOptions
	File string    // the world file, or "-" for In
	In   io.Reader // standard input
}

func newAdminApplyCmd(o *adminOptions) *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "apply -f FILE",
		Short: "Create or update what a world file names (idempotent)",
		Long: `Create or update the organizations, users, deals, requests, messages, files and
keys a world file (YAML or JSON) names. Applying a file twice changes nothing
and duplicates nothing. -o json prints the ids resolved and the secret of every
key created; secrets are shown only once. See docs/world-file.md.

It creates the database when --db or DEALCTL_DB names one that does not exist
yet, never at the default location.`,
		Example: `  dealctl admin apply -f world.yaml
  dealctl admin apply -f world.json -o json --db ./dealctl.db
  cat world.yaml | dealctl admin apply -f -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if file == "" {
				return cmdutil.UsageErrorf("no world file: pass -f FILE (or -f - for stdin)")
			}
			ro := o.runOptions(cmd)
			var err error
			if ro.AsJSON, err = o.asJSON(cmd); err != nil {
				return err
			}
			return adminApplyRun(cmd.Context(), &adminApplyOptions{runOptions: ro, File: file, In: cmd.InOrStdin()})
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "world file, YAML or JSON (- for stdin)")
	return cmd
}

func adminApplyRun(ctx context.Context, o *adminApplyOptions) error {
	data, baseDir, err := readWorldFile(o.In, o.File)
	if err != nil {
		return err
	}
	name := o.File
	if o.File == "-" {
		name = "stdin"
	}
	w, err := world.Parse(data)
	if err != nil {
		return worldError(name, err)
	}
	db, err := o.openOrCreate(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	res, err := world.Apply(ctx, db, w, baseDir, time.Now())
	if err != nil {
		return worldError(name, err)
	}
	if o.AsJSON {
		return display.WriteJSON(o.Out, res)
	}
	return res.WriteText(o.Out)
}

// readWorldFile reads the file and says which folder its relative file
// paths start from: the file's own, or the working directory for stdin.
func readWorldFile(stdin io.Reader, file string) ([]byte, string, error) {
	if file == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, "", fmt.Errorf("cannot read the world file from stdin: %w", err)
		}
		return data, ".", nil
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", cmdutil.WithExit(cmdutil.ExitNotFound, fmt.Errorf("world file %s does not exist", file))
	}
	if err != nil {
		return nil, "", fmt.Errorf("cannot read the world file: %w", err)
	}
	return data, filepath.Dir(file), nil
}

// worldError gives a bad world file exit code 6 and lists its problems,
// one per line, under the file's name.
func worldError(name string, err error) error {
	var inv *world.InvalidError
	if errors.As(err, &inv) {
		lines := make([]string, len(inv.Problems))
		for i, p := range inv.Problems {
			lines[i] = "  " + p.String()
		}
		what := "problem"
		if len(lines) > 1 {
			what = "problems"
		}
		return cmdutil.WithExit(cmdutil.ExitValidation, fmt.Errorf("%s has %d %s; fix them and apply again:\n%s", name, len(lines), what, strings.Join(lines, "\n")))
	}
	var syn *world.SyntaxError
	if errors.As(err, &syn) {
		return cmdutil.WithExit(cmdutil.ExitValidation, fmt.Errorf("%s: %w", name, err))
	}
	return fmt.Errorf("applying %s failed, nothing was written: %w", name, err)
}
