package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// newExportMode is the permission of a file export creates: a request
// list is confidential, so it is readable by its owner only. A file that
// exists keeps its own.
const newExportMode fs.FileMode = 0o600

// exportTarget is the file `export -o FILE` writes, worked out before any
// call so that a mistake in FILE costs nothing.
type exportTarget struct {
	name   string      // FILE as given, for messages
	path   string      // FILE with symbolic links followed: what is written
	device bool        // a device or FIFO: written to as it is, never replaced
	mode   fs.FileMode // the permissions the written file ends with
}

// resolveExportTarget checks FILE and decides how to write it: a link is
// followed to the file it names; a device or FIFO is written to directly;
// a new regular file is written to a temporary file renamed into place;
// one that exists is refused unless force, and then replaced the same
// way, keeping its permissions (as `download` never overwrites a file
// unasked).
func resolveExportTarget(name string, force bool) (*exportTarget, error) {
	if strings.HasSuffix(name, "/") || strings.HasSuffix(name, string(os.PathSeparator)) {
		return nil, folderError(name)
	}
	path, err := followLinks(name)
	if err != nil {
		return nil, cmdutil.WithExit(cmdutil.ExitUsage, fmt.Errorf("-o %s: %w", name, err))
	}
	t := &exportTarget{name: name, path: path, mode: newExportMode}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return t, checkFolderExists(name, filepath.Dir(path))
	case err != nil:
		return nil, fmt.Errorf("cannot write %s: %w", name, err)
	case fi.IsDir():
		return nil, folderError(name)
	case !fi.Mode().IsRegular():
		t.device = true
	case !force:
		return nil, cmdutil.WithExit(cmdutil.ExitConflict, fmt.Errorf("-o %s exists: nothing was written; pass --force to replace it, or give another name", name))
	default:
		t.mode = fi.Mode().Perm()
	}
	return t, nil
}

// followLinks follows symbolic links from name to the file they end at,
// which may not exist yet (a link to a file still to be written).
func followLinks(name string) (string, error) {
	path := name
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", errors.New("too many levels of symbolic links")
}

func folderError(name string) error {
	return cmdutil.UsageErrorf("-o %s is a folder: give a file name, e.g. -o %s", name, filepath.Join(name, "list.xlsx"))
}

func checkFolderExists(name, dir string) error {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return cmdutil.UsageErrorf("-o %s: the folder %s does not exist: create it first, or give another path", name, dir)
	}
	return nil
}

// write writes the export through write.
func (t *exportTarget) write(write func(io.Writer) error) error {
	var err error
	if t.device {
		err = writeStraight(t.path, write)
	} else {
		err = writeReplacing(t.path, t.mode, write)
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", t.name, err)
	}
	return nil
}

// writeStraight writes to a device or FIFO as it is: replacing it would
// put a regular file where the device was.
func writeStraight(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeReplacing writes through a temporary file renamed into place, so
// an interrupted export never leaves half a workbook under the real name.
func writeReplacing(path string, mode fs.FileMode, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if err := writeAndClose(tmp, mode, write); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func writeAndClose(f *os.File, mode fs.FileMode, write func(io.Writer) error) error {
	w := bufio.NewWriter(f)
	err := write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// formatFromName picks the export format from FILE's extension. A FILE
// that is a bare format word (`-o json`, the global -o habit) or has no
// known extension is a usage error rather than a workbook under an odd
// name.
func formatFromName(name string) (string, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".xlsx":
		return exportXLSX, nil
	case ".csv":
		return exportCSV, nil
	case ".json":
		return exportJSON, nil
	case ".md", ".markdown":
		return exportMD, nil
	}
	if word := strings.ToLower(name); isFormatWord(word) {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			example := exportJSON
			if slices.Contains(exportFormats, word) {
				example = word
			}
			return "", cmdutil.UsageErrorf("-o %s: export's -o is the file to write, not the format: give --format, e.g. dealctl export --format %s -o list.%s",
				name, example, example)
		}
	}
	return "", cmdutil.UsageErrorf("-o %s: cannot tell the format from the name: end it in .xlsx, .csv, .json or .md, or give --format xlsx|csv|json|md", name)
}

// isFormatWord reports whether s is the name of a format, of export or of
// the global -o.
func isFormatWord(s string) bool {
	return s == "markdown" || slices.Contains(exportFormats, s) || slices.Contains(output.Formats, s)
}
