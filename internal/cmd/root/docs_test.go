package root_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/dealctl/dealctl/internal/tools/gendocs"
)

// TestCommittedDocsAreCurrent regenerates completions/ and man/ into a
// temporary directory and compares them with the committed files, so a
// command or flag change cannot ship with stale completions or man pages.
// It lives here rather than beside the generator because this package's
// test binary links the whole command tree anyway: one link of it, not two.
func TestCommittedDocsAreCurrent(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fresh := t.TempDir()
	if err := gendocs.Generate(fresh); err != nil {
		t.Fatal(err)
	}
	for _, sub := range gendocs.Dirs {
		want := readDir(t, filepath.Join(fresh, sub))
		got := readDir(t, filepath.Join(repo, sub))
		if len(want) == 0 {
			t.Fatalf("%s: the generator wrote nothing", sub)
		}
		for _, name := range sortedKeys(want) {
			have, ok := got[name]
			switch {
			case !ok:
				t.Errorf("%s/%s is missing; %s", sub, name, gendocs.Regenerate)
			case !bytes.Equal(have, want[name]):
				t.Errorf("%s/%s is out of date; %s", sub, name, gendocs.Regenerate)
			}
		}
		for _, name := range sortedKeys(got) {
			if _, ok := want[name]; !ok {
				t.Errorf("%s/%s is not generated any more (a command went away?): remove it, or %s", sub, name, gendocs.Regenerate)
			}
		}
	}
}

func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
