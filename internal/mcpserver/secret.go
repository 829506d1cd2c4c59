package mcpserver

import (
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// TokenSecret is the key the confirmation tokens are signed with, kept
// in dir (the user's cache folder) so that a token outlives a restart of
// dealctl mcp: an MCP client may start the server again between a
// preview and its confirmation, and the Inspector's CLI starts one per
// call. It is drawn at random on first use and readable by the user
// alone; whoever can read it can read the user's API key too.
func TokenSecret(dir string) ([]byte, error) {
	path := filepath.Join(dir, "mcp", "confirm.key")
	if b, err := os.ReadFile(path); err == nil && len(b) == 32 {
		return b, nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".confirm-*")
	if err != nil {
		return nil, err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return nil, errors.Join(werr, cerr)
	}
	// Two servers starting together: the first rename wins, and both
	// use what is on disk.
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return nil, err
	}
	return os.ReadFile(path)
}
