package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
)

// Where a key came from, as `auth status` reports it.
const (
	SourceEnv     = "DEALCTL_API_KEY"
	SourceKeyring = "keyring"
	SourceFile    = "file"
)

const keyringService = "dealctl"

// ErrNoKey means no key is stored for the server.
var ErrNoKey = errors.New("no API key")

// keyringTimeout bounds every keyring call: a locked keyring can wait
// forever for a GUI prompt nobody will answer.
var keyringTimeout = 3 * time.Second

// KeyStore finds and keeps API keys, one per server: the environment
// first, then the OS keyring, then a 0600 file in the config directory for
// machines without a keyring (or with DEALCTL_KEYRING=file).
type KeyStore struct {
	Dir       string              // config directory holding the key file
	ForceFile bool                // DEALCTL_KEYRING=file: never touch the OS keyring
	Getenv    func(string) string // the environment: os.Getenv in a real process
	Warn      func(format string, a ...any)
}

// NewKeyStore returns the store for dir, honouring DEALCTL_KEYRING and
// DEALCTL_API_KEY as getenv (os.Getenv in a real process) gives them.
func NewKeyStore(dir string, getenv func(string) string, warn func(string, ...any)) *KeyStore {
	return &KeyStore{Dir: dir, ForceFile: getenv("DEALCTL_KEYRING") == "file", Getenv: getenv, Warn: warn}
}

// FilePath is the plain-text key file used when no keyring is available.
func (s *KeyStore) FilePath() string { return filepath.Join(s.Dir, "keys.json") }

// Get returns the key for server and where it came from.
func (s *KeyStore) Get(server string) (key, source string, err error) {
	if k := strings.TrimSpace(s.Getenv("DEALCTL_API_KEY")); k != "" {
		return k, SourceEnv, nil
	}
	if !s.ForceFile {
		k, err := keyringCall(func() (string, error) { return keyring.Get(keyringService, server) })
		if err == nil && k != "" {
			return k, SourceKeyring, nil
		}
	}
	keys, err := s.readFile()
	if err != nil {
		return "", "", err
	}
	if k := keys[server]; k != "" {
		return k, SourceFile, nil
	}
	return "", "", ErrNoKey
}

// Set stores key for server: in the keyring when one answers, else in the
// key file, with a warning that it is kept in plain text. It returns where
// the key went.
func (s *KeyStore) Set(server, key string) (string, error) {
	if !s.ForceFile {
		_, err := keyringCall(func() (string, error) { return "", keyring.Set(keyringService, server, key) })
		if err == nil {
			// A key left in the file from before would shadow nothing, but
			// plain-text secrets should not outlive their need.
			_ = s.deleteFromFile(server)
			return SourceKeyring, nil
		}
		if s.Warn != nil {
			s.Warn("no OS keyring available (%v); storing the key in plain text in %s (mode 0600)", err, s.FilePath())
		}
	}
	keys, err := s.readFile()
	if err != nil {
		return "", err
	}
	keys[server] = key
	return SourceFile, s.writeFile(keys)
}

// Delete forgets the key for server wherever it is stored. It reports
// whether there was one.
func (s *KeyStore) Delete(server string) (bool, error) {
	found := false
	if !s.ForceFile {
		_, err := keyringCall(func() (string, error) { return "", keyring.Delete(keyringService, server) })
		found = err == nil
	}
	keys, err := s.readFile()
	if err != nil {
		return found, err
	}
	if _, ok := keys[server]; ok {
		found = true
		delete(keys, server)
		return found, s.writeFile(keys)
	}
	return found, nil
}

func (s *KeyStore) deleteFromFile(server string) error {
	keys, err := s.readFile()
	if err != nil {
		return err
	}
	if _, ok := keys[server]; !ok {
		return nil
	}
	delete(keys, server)
	return s.writeFile(keys)
}

func (s *KeyStore) readFile() (map[string]string, error) {
	keys := map[string]string{}
	data, err := os.ReadFile(s.FilePath())
	if errors.Is(err, os.ErrNotExist) {
		return keys, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &keys); err != nil {
		return nil, fmt.Errorf("key file %s is damaged: %w (remove it and run 'dealctl auth login')", s.FilePath(), err)
	}
	return keys, nil
}

func (s *KeyStore) writeFile(keys map[string]string) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(keys, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.Dir, ".keys-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), s.FilePath())
}

// errKeyringTimeout stands for a keyring that did not answer in time.
var errKeyringTimeout = errors.New("the OS keyring did not answer within 3s")

// keyringCall runs fn with a timeout. Any error other than ErrNotFound
// means "no usable keyring": headless Linux reports a missing D-Bus or
// secret service with raw errors, not a sentinel.
func keyringCall(fn func() (string, error)) (string, error) {
	type result struct {
		v   string
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := fn()
		ch <- result{v, err}
	}()
	t := time.NewTimer(keyringTimeout)
	defer t.Stop()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-t.C:
		return "", errKeyringTimeout
	}
}
