package server

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// A sender that declares 1 MiB and stops after a few bytes has cost the
// server the first 64 KiB, not the megabyte it declared.
func TestDeclaredBodyIsAllocatedAsItArrives(t *testing.T) {
	stalled := func() io.Reader {
		return io.MultiReader(strings.NewReader(`{"title": "`), errReader{})
	}
	allocated := func() uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range 10 {
			if _, err := readDeclared(stalled(), api.MaxRequestBody); err == nil {
				t.Fatal("a body cut short was read")
			}
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 10
	}
	if got := allocated(); got > 2*upfrontBody {
		t.Errorf("a stalled 1 MiB body allocated %d bytes, want at most about %d", got, upfrontBody)
	}
	// A whole body is read into one buffer of its size.
	body := `{"title": "` + strings.Repeat("a", 200_000) + `"}`
	data, err := readDeclared(strings.NewReader(body), int64(len(body)))
	if err != nil || string(data) != body {
		t.Errorf("a whole body read as %d bytes, err %v", len(data), err)
	}
}

// errReader is a connection that fails, as one cut off does.
type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }
