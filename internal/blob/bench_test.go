package blob_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/dealctl/dealctl/internal/procstat"
)

// BenchmarkS3Put1GiB attaches a 1 GiB file to versitygw on loopback, as
// `admin files attach --files` does: a hashing pass, then the upload,
// hashed again. The file is written once with pseudo-random bytes and
// stays in the page cache, as a file just made or copied does (a sparse
// file would measure the kernel zeroing its holes on each read instead:
// a quarter of the CPU, none of it an attach's). Each round changes its
// first bytes, so that every round stores a new content. MB/s is the
// figure, and cpu-s/op the CPU seconds both sides spent (this process
// and versitygw, its child), which the machine's load disturbs less.
func BenchmarkS3Put1GiB(b *testing.B) {
	const size = 1 << 30
	s := openTestS3Bench(b)
	path := filepath.Join(b.TempDir(), "pack.bin")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	writeRandom(b, f, size)
	b.SetBytes(size)
	round := uint64(0)
	var cpu float64
	for b.Loop() {
		round++
		var head [8]byte
		binary.BigEndian.PutUint64(head[:], round)
		if _, err := f.WriteAt(head[:], 0); err != nil {
			b.Fatal(err)
		}
		if _, err := f.Seek(0, 0); err != nil {
			b.Fatal(err)
		}
		before := cpuSeconds()
		info, err := s.Put(context.Background(), f)
		if err != nil || info.Size != size {
			b.Fatalf("Put = %+v, %v", info, err)
		}
		b.StopTimer()
		cpu += cpuSeconds() - before
		_ = s.Delete(context.Background(), info.SHA256) // keep the disk free
		b.StartTimer()
	}
	b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
}

// writeRandom fills f with n pseudo-random bytes.
func writeRandom(b *testing.B, f *os.File, n int64) {
	b.Helper()
	w := bufio.NewWriterSize(f, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	var word [8]byte
	for i := int64(0); i < n; i += 8 {
		binary.LittleEndian.PutUint64(word[:], r.Uint64())
		if _, err := w.Write(word[:]); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
}

// cpuSeconds is the CPU time (user and system) this process and its
// children (versitygw, started by s3test) have used so far, from /proc
// (procstat.TreeCPU): on a shared machine a steadier figure than the
// wall clock.
func cpuSeconds() float64 {
	return procstat.TreeCPU(os.Getpid()).Seconds()
}
