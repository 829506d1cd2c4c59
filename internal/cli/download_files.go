package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/safepath"
)

// What `download` (and the TUI's d) does with a fetched file: the name it
// is saved under, whether one already there holds the same bytes, and the
// progress bar on the way.

// fileName is the first of names that is usable as a file name once made
// safe (safepath.Part): the link's file name, the file's, its version id.
func fileName(names ...string) string {
	for _, n := range names {
		if n = safepath.Part(n); n != "" {
			return n
		}
	}
	return "download"
}

// uniqueName is the name f is saved under: name, or when the same run
// saved a file of that name already (two requests answered with
// "accounts.pdf"), the request's number and name, then that with the
// version id. Every candidate goes through safepath.Part: a number is
// text the owning side chose, and "zz/../../x" must not become a path.
// used is nil for a file saved alone.
func uniqueName(used map[string]bool, f requestFile, name string) string {
	if used == nil {
		return name
	}
	for _, candidate := range []string{
		name,
		safepath.Part(f.Request + "-" + name),
		safepath.Part(f.Request + "-" + f.VersionID + "-" + name),
	} {
		if candidate != "" && !used[candidate] {
			used[candidate] = true
			return candidate
		}
	}
	return safepath.Part(f.VersionID) // version ids are unique on a deal
}

// sameContent reports whether the files at a and b hold the same bytes.
func sameContent(a, b string) (bool, error) {
	fa, err := os.Open(a)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false, err
	}
	defer fb.Close()
	sa, err := fa.Stat()
	if err != nil {
		return false, err
	}
	sb, err := fb.Stat()
	if err != nil {
		return false, err
	}
	if !sa.Mode().IsRegular() || sa.Size() != sb.Size() {
		return false, nil
	}
	bufA, bufB := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, errA := io.ReadFull(fa, bufA)
		nb, errB := io.ReadFull(fb, bufB)
		if na != nb || !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false, nil
		}
		if errA != nil || errB != nil {
			return errors.Is(errA, io.EOF) || errors.Is(errA, io.ErrUnexpectedEOF), nil
		}
	}
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
		fmt.Fprintf(p.out, "\r%s %s %3d%% of %s", p.name, bar, pct, display.HumanSize(p.total))
	}
	return n, err
}

func (p *progressWriter) done() { fmt.Fprintln(p.out) }
