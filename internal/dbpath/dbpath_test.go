package dbpath

import (
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv(EnvVar, "")
	got, err := Resolve("")
	if want := filepath.Join(home, ".local", "share", "dealctl", "dealctl.db"); err != nil || got != want {
		t.Fatalf("Resolve() = %q, %v; want %q", got, err, want)
	}
	t.Setenv("XDG_DATA_HOME", "/data")
	if got, _ := Resolve(""); got != filepath.Join("/data", "dealctl", "dealctl.db") {
		t.Errorf("with XDG_DATA_HOME: %q", got)
	}
	t.Setenv("XDG_DATA_HOME", "relative") // not absolute: ignored, as the XDG spec says
	if got, _ := Resolve(""); got != filepath.Join(home, ".local", "share", "dealctl", "dealctl.db") {
		t.Errorf("with relative XDG_DATA_HOME: %q", got)
	}
	t.Setenv(EnvVar, "postgres://db/x")
	if got, _ := Resolve(""); got != "postgres://db/x" {
		t.Errorf("with %s: %q", EnvVar, got)
	}
	if got, _ := Resolve("flag.db"); got != "flag.db" {
		t.Errorf("flag: %q", got)
	}
}
