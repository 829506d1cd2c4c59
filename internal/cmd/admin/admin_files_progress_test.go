package admin

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/blob"
)

// TestMigrateProgress: a bar redrawn in place on a terminal, a line per
// file otherwise.
func TestMigrateProgress(t *testing.T) {
	t.Parallel()
	todo := []blob.Info{{SHA256: strings.Repeat("a", 64), Size: 3 << 20}, {SHA256: strings.Repeat("b", 64), Size: 1 << 20}}
	for _, bar := range []bool{true, false} {
		var errOut bytes.Buffer
		m := &migrateFilesOptions{runOptions: runOptions{ErrOut: &errOut}, Progress: bar}
		p := newMigrateProgress(m, todo, "to s3://b/")
		p.done(todo[0], false)
		p.done(todo[1], true)
		p.finish()
		got := errOut.String()
		if bar {
			if !strings.Contains(got, "\r[######################........] 1/2 files, 3.0 MiB of 4.0 MiB") ||
				!strings.Contains(got, "\r[##############################] 2/2 files") || !strings.HasSuffix(got, "\n") || strings.Count(got, "\n") != 1 {
				t.Errorf("terminal progress = %q", got)
			}
			continue
		}
		lines := strings.Split(strings.TrimSpace(got), "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "moving 2 file contents (4.0 MiB) to s3://b/") ||
			!strings.Contains(lines[1], "1/2 "+todo[0].SHA256+" moved (3.0 MiB)") || !strings.Contains(lines[2], "in place already") || strings.Contains(got, "\r") {
			t.Errorf("plain progress = %q", got)
		}
	}
}
