package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

const regenerate = "regenerate them with: go generate ./internal/tools/gendocs (then commit completions/ and man/)"

// TestCommittedFilesAreCurrent regenerates completions/ and man/ into a
// temporary directory and compares them with the committed files, so a
// command or flag change cannot ship with stale completions or man pages.
func TestCommittedFilesAreCurrent(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fresh := t.TempDir()
	if err := generate(fresh); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{completionsDir, manDir} {
		want := readDir(t, filepath.Join(fresh, sub))
		got := readDir(t, filepath.Join(repo, sub))
		if len(want) == 0 {
			t.Fatalf("%s: the generator wrote nothing", sub)
		}
		for _, name := range sortedKeys(want) {
			have, ok := got[name]
			switch {
			case !ok:
				t.Errorf("%s/%s is missing; %s", sub, name, regenerate)
			case !bytes.Equal(have, want[name]):
				t.Errorf("%s/%s is out of date; %s", sub, name, regenerate)
			}
		}
		for _, name := range sortedKeys(got) {
			if _, ok := want[name]; !ok {
				t.Errorf("%s/%s is not generated any more (a command went away?): remove it, or %s", sub, name, regenerate)
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
