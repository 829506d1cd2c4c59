package world

import (
	"os"
	"testing"
)

// FuzzParse feeds the world parser arbitrary bytes: it must return a world
// or an error, never panic. The demo world is left out of the seeds: at
// 20 KB, minimizing its mutations takes the fuzzer most of a minute each.
func FuzzParse(f *testing.F) {
	f.Add([]byte(baseWorld))
	if data, err := os.ReadFile(examplePath); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"deals": [{"key": "d", "requests": [{"number": "1.1"}]}]}`))
	f.Add([]byte("deals:\n  - key: d\n    requests:\n      - {number: '.', parent: '.'}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Parse(data)
		if err == nil && w == nil {
			t.Fatal("Parse returned neither a world nor an error")
		}
	})
}
