package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// Writers at once, a reader among them: every write is kept whole.
func TestWritesAtOnceAreKept(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				_, _ = b.Write([]byte("line\n"))
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if got := strings.Count(b.String(), "line\n"); got != 800 {
		t.Errorf("%d lines kept, want 800", got)
	}
}
