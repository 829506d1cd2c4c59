package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/iostreams"
)

// BenchmarkImport700 imports 700 new rows (64 sections, 636 requests)
// against a real server at the default 600 calls a minute. The bucket's
// 600-call burst covers most of it; every call past it waits for the
// refill of 10 a second, so the floor is (calls − 600) / 10 s. Reported:
// the calls made, the 429s met (target 0) and the time over that floor
// (target: floor/elapsed ≥ 0.85).
func BenchmarkImport700(b *testing.B) {
	sheet := bigSheet(b, 636) // with its 64 sections, 700 rows
	for b.Loop() {
		b.StopTimer()
		ls := startLiveServer(b, 600)
		home := b.TempDir()
		for k, v := range map[string]string{
			"HOME": home, "XDG_CONFIG_HOME": home + "/c", "XDG_CACHE_HOME": home + "/k", "DEALCTL_KEYRING": "file",
			"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey, "DEALCTL_DEAL": "falcon",
		} {
			b.Setenv(k, v)
		}
		ios, _, _, errOut := iostreams.Test()
		b.StartTimer()
		start := time.Now()
		code := Run(context.Background(), NewFactory(ios), []string{"import", sheet})
		elapsed := time.Since(start)
		b.StopTimer()
		if code != 0 {
			b.Fatalf("import: exit %d\n%s", code, errOut)
		}
		calls := ls.calls.Load()
		floor := time.Duration(max(calls-600, 0)) * 100 * time.Millisecond
		b.ReportMetric(float64(calls), "calls")
		b.ReportMetric(float64(ls.limited.Load()), "429s")
		b.ReportMetric(floor.Seconds(), "floor-s")
		b.ReportMetric(floor.Seconds()/elapsed.Seconds(), "floor/elapsed")
		b.StartTimer()
	}
}

// BenchmarkImportDryRun600 plans a 600-row tracker against a real server:
// the whole command, reading the file included (target ≤ 0.5 s/op). Half
// the rows are unnumbered, so numbering and title matching are measured
// too.
func BenchmarkImportDryRun600(b *testing.B) {
	var sheet strings.Builder
	sheet.WriteString("No.,Request,Details,Priority,Due\n")
	for i := 0; i < 600; i++ {
		if i%60 == 0 {
			fmt.Fprintf(&sheet, "%d,Workstream %d,,,\n", 10+i/60, i/60)
			continue
		}
		number := ""
		if i%2 == 0 {
			number = fmt.Sprintf("%d.%d", 10+i/60, i%60)
		}
		fmt.Fprintf(&sheet, "%s,Request %d on topic %d,\"Details of item %d, with context.\",P%d,2026-06-%02d\n", number, i, i%37, i, 1+i%3, 1+i%28)
	}
	path := filepath.Join(b.TempDir(), "tracker.csv")
	if err := os.WriteFile(path, []byte(sheet.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	ls := startLiveServer(b, 0)
	home := b.TempDir()
	for k, v := range map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": home + "/c", "XDG_CACHE_HOME": home + "/k", "DEALCTL_KEYRING": "file",
		"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey, "DEALCTL_DEAL": "falcon",
	} {
		b.Setenv(k, v)
	}
	for b.Loop() {
		ios, _, _, errOut := iostreams.Test()
		if code := Run(context.Background(), NewFactory(ios), []string{"import", path, "--dry-run", "-o", "json"}); code != 0 {
			b.Fatalf("dry run: exit %d\n%s", code, errOut)
		}
	}
}
