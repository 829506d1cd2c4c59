package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// The keyring mock is process-global, so these tests do not run in
// parallel.

func newStore(t *testing.T, env map[string]string) (*KeyStore, *[]string) {
	t.Helper()
	var warnings []string
	return &KeyStore{
		Dir:    t.TempDir(),
		Getenv: func(k string) string { return env[k] },
		Warn:   func(f string, a ...any) { warnings = append(warnings, fmt.Sprintf(f, a...)) },
	}, &warnings
}

const srv = "http://127.0.0.1:8080"

func TestKeyringRoundTrip(t *testing.T) {
	keyring.MockInit()
	s, warnings := newStore(t, nil)
	where, err := s.Set(srv, "dlk_a")
	if err != nil || where != SourceKeyring {
		t.Fatalf("Set = %q, %v", where, err)
	}
	k, src, err := s.Get(srv)
	if err != nil || k != "dlk_a" || src != SourceKeyring {
		t.Errorf("Get = %q, %q, %v", k, src, err)
	}
	if _, err := os.Stat(s.FilePath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("key file written although the keyring works: %v", err)
	}
	if len(*warnings) != 0 {
		t.Errorf("warnings: %v", *warnings)
	}
	if found, err := s.Delete(srv); !found || err != nil {
		t.Errorf("Delete = %v, %v", found, err)
	}
	if _, _, err := s.Get(srv); !errors.Is(err, ErrNoKey) {
		t.Errorf("after Delete, Get err = %v", err)
	}
}

func TestEnvironmentWins(t *testing.T) {
	keyring.MockInit()
	s, _ := newStore(t, map[string]string{"DEALCTL_API_KEY": " dlk_env\n"})
	if _, err := s.Set(srv, "dlk_stored"); err != nil {
		t.Fatal(err)
	}
	k, src, err := s.Get(srv)
	if err != nil || k != "dlk_env" || src != SourceEnv {
		t.Errorf("Get = %q, %q, %v", k, src, err)
	}
}

func TestNoKeyringFallsBackToFile(t *testing.T) {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided"))
	s, warnings := newStore(t, nil)
	where, err := s.Set(srv, "dlk_b")
	if err != nil || where != SourceFile {
		t.Fatalf("Set = %q, %v", where, err)
	}
	if len(*warnings) != 1 {
		t.Errorf("want one warning about plain text, got %v", *warnings)
	}
	fi, err := os.Stat(filepath.Join(s.Dir, "keys.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, %v", fi, err)
	}
	k, src, err := s.Get(srv)
	if err != nil || k != "dlk_b" || src != SourceFile {
		t.Errorf("Get = %q, %q, %v", k, src, err)
	}
	if found, _ := s.Delete(srv); !found {
		t.Error("Delete did not find the file key")
	}
}

func TestForceFileNeverTouchesKeyring(t *testing.T) {
	keyring.MockInit()
	if err := keyring.Set(keyringService, srv, "dlk_in_keyring"); err != nil {
		t.Fatal(err)
	}
	s, warnings := newStore(t, nil)
	s.ForceFile = true
	if _, _, err := s.Get(srv); !errors.Is(err, ErrNoKey) {
		t.Errorf("Get read the keyring: %v", err)
	}
	if where, err := s.Set(srv, "dlk_c"); err != nil || where != SourceFile {
		t.Errorf("Set = %q, %v", where, err)
	}
	if len(*warnings) != 0 {
		t.Errorf("forced file mode should not warn: %v", *warnings)
	}
	if k, _ := keyring.Get(keyringService, srv); k != "dlk_in_keyring" {
		t.Errorf("keyring changed to %q", k)
	}
}

func TestKeyringTimeout(t *testing.T) {
	old := keyringTimeout
	keyringTimeout = 20 * time.Millisecond
	defer func() { keyringTimeout = old }()
	block := make(chan struct{})
	defer close(block)
	_, err := keyringCall(func() (string, error) { <-block; return "", nil })
	if !errors.Is(err, errKeyringTimeout) {
		t.Errorf("err = %v, want timeout", err)
	}
}
