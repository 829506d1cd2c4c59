package serve

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

func TestServeDigestAt(t *testing.T) {
	for _, tc := range []struct {
		flag string
		on   bool
		at   string
	}{{"", true, "07:00"}, {"18:30", true, "18:30"}, {"6", true, "06:00"}, {"off", false, ""}, {"OFF", false, ""}} {
		at, on, err := digestSchedule("--digest-at", tc.flag)
		if err != nil || on != tc.on || (on && at.String() != tc.at) {
			t.Errorf("--digest-at %q: %v, %v, %v; want %v at %s", tc.flag, at, on, err, tc.on, tc.at)
		}
	}
	// A bad value is a usage error, before any database is opened.
	db := filepath.Join(t.TempDir(), "never.db")
	var out bytes.Buffer
	err := runServe(context.Background(), &serveOptions{db: db, addr: "127.0.0.1:0", rateLimit: 600, logFormat: "text",
		schemaCheck: time.Second, digestAt: "25:00"}, &out, &out)
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "--digest-at") || !strings.Contains(err.Error(), "HH:MM") {
		t.Errorf("--digest-at 25:00: %v (exit %d), want a usage error naming the flag and HH:MM", err, cmdutil.ExitCode(err))
	}
	if _, statErr := os.Stat(db); !errors.Is(statErr, fs.ErrNotExist) || out.Len() > 0 {
		t.Errorf("a bad --digest-at printed %q and left the database %v; want neither", out.String(), statErr)
	}
}

// TestServeRunsTheDigestScheduler: serve says when digests go, or that
// they are off.
func TestServeRunsTheDigestScheduler(t *testing.T) {
	t.Setenv("DEALCTL_NOTIFY_URL", "")
	for flag, want := range map[string]string{"08:15": `msg="daily digests" at=08:15`, "off": `msg="daily digests off`} {
		db := filepath.Join(t.TempDir(), "deals.db")
		_, logs := startServe(t, &serveOptions{db: db, addr: "127.0.0.1:0", rateLimit: 600, logFormat: "text",
			shutdownTimeout: time.Second, schemaCheck: time.Second, digestAt: flag})
		if !strings.Contains(logs.String(), want) {
			t.Errorf("serve --digest-at %s logged:\n%s\nwant %q", flag, logs.String(), want)
		}
	}
}
