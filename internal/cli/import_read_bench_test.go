package cli

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dealctl/dealctl/internal/iostreams"
)

// BenchmarkImportDryRunUSTracker plans the 600-row US tracker against a real
// server (read, infer the date order, fetch the list and people, plan,
// print -o json). Target: ≤ 0.5 s an operation.
func BenchmarkImportDryRunUSTracker(b *testing.B) {
	ls := startLiveServer(b, 1_000_000)
	home := b.TempDir()
	for k, v := range map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": home + "/c", "XDG_CACHE_HOME": home + "/k", "DEALCTL_KEYRING": "file",
		"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey, "DEALCTL_DEAL": "falcon",
	} {
		b.Setenv(k, v)
	}
	file := filepath.Join(spreadsheets, "us-vdr-tracker.csv")
	for b.Loop() {
		ios, _, _, errOut := iostreams.Test()
		if code := Run(context.Background(), NewFactory(ios), []string{"import", file, "--dry-run", "-o", "json"}); code != 0 {
			b.Fatalf("import --dry-run: exit %d\n%s", code, errOut)
		}
	}
}
