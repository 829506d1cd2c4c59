package exporters

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// syntheticExport is a list of n rows: a section every 20 rows, bodies of
// a few sentences, a due date, an assignee and a link on every tenth.
func syntheticExport(n int) *Export {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	rows := make([]api.DealRequest, 0, n)
	var sec string
	for i := 0; len(rows) < n; i++ {
		if i%20 == 0 {
			sec = fmt.Sprintf("s%d", i)
			rows = append(rows, api.DealRequest{ID: sec, Kind: api.KindSection, Number: fmt.Sprint(i/20 + 1), Title: "Section", UpdatedAt: at})
			continue
		}
		r := api.DealRequest{ID: fmt.Sprintf("r%d", i), ParentID: &sec, Kind: api.KindRequest,
			Number: fmt.Sprintf("%d.%d", i/20+1, i%20), Title: fmt.Sprintf("Request %d: copies of the material contracts", i),
			Body:   strings.Repeat("Provide the documents with all amendments and side letters. ", 4),
			Status: api.RequestStatuses[i%3], Priority: api.Priorities[i%3], Category: api.RequestCategories[i%6],
			DueDate: ptr2("2026-06-30"), AssigneeID: ptr2("p1"), UpdatedAt: at}
		if i%10 == 0 {
			r.Files = []api.File{{Kind: api.FileKindLink, URL: ptr2(fmt.Sprintf("https://example.com/doc/%d", i))}}
		}
		rows = append(rows, r)
	}
	return &Export{Deal: api.Deal{Codename: "Bench", Name: "Benchmark"}, Rows: rows,
		People: []api.Person{{ID: "p1", Email: "alice@target.example"}}, Now: at}
}

// BenchmarkWriteXLSX2200 is the target list: 2,200 rows to xlsx
// (target: the whole `dealctl export` under 1.5 s).
func BenchmarkWriteXLSX2200(b *testing.B) {
	benchmarkXLSX(b, 2200)
}

// BenchmarkWriteXLSX20000 reports the peak heap of a 20,000-row export
// (target: under 200 MiB for the process).
func BenchmarkWriteXLSX20000(b *testing.B) {
	benchmarkXLSX(b, 20000)
}

func benchmarkXLSX(b *testing.B, n int) {
	e := syntheticExport(n)
	b.ReportAllocs()
	var peak uint64
	stop := samplePeakHeap(&peak)
	b.ResetTimer()
	for b.Loop() {
		if err := WriteXLSX(io.Discard, e); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	stop()
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
}

// samplePeakHeap records the largest heap in use every few milliseconds
// until stopped: allocation totals say nothing about peak memory.
func samplePeakHeap(peak *uint64) (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for !done.Load() {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > *peak {
				*peak = ms.HeapInuse
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return func() { done.Store(true); wg.Wait() }
}
