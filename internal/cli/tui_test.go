package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
)

// d in the TUI saves files as `dealctl download` does, into
// --download-dir, and says plainly when a file is still being scanned.
func TestTUIDownloader(t *testing.T) {
	fa := newFakeAPI(t)
	c, err := client.New(client.Options{BaseURL: fa.srv.URL, Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dl := tuiDownloader(c, dir)
	files := fa.rows[4].Files

	path, err := dl(context.Background(), fa.deal.Deal, "2.1", files[0])
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "cert.pdf") {
		t.Errorf("saved to %s, want %s", path, filepath.Join(dir, "cert.pdf"))
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "%PDF-cert" {
		t.Errorf("saved %q (%v), want the file's bytes", data, err)
	}

	_, err = dl(context.Background(), fa.deal.Deal, "2.1", api.File{VersionID: scanVID, Name: ptr("scan.txt"), Kind: api.FileKindFile})
	if err == nil || !strings.Contains(err.Error(), "not downloadable yet") {
		t.Errorf("a file being scanned: err = %v, want 'not downloadable yet'", err)
	}
}
