package blob_test

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkS3Put1GiB attaches a 1 GiB file to versitygw on loopback, as
// `admin files attach --files` does: a hashing pass, then the upload,
// hashed again. The file is sparse; each round changes its first bytes,
// so that every round stores a new content. MB/s is the figure.
func BenchmarkS3Put1GiB(b *testing.B) {
	const size = 1 << 30
	s := openTestS3Bench(b)
	path := filepath.Join(b.TempDir(), "pack.bin")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	round := uint64(0)
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
		info, err := s.Put(context.Background(), f)
		if err != nil || info.Size != size {
			b.Fatalf("Put = %+v, %v", info, err)
		}
		b.StopTimer()
		_ = s.Delete(context.Background(), info.SHA256) // keep the disk free
		b.StartTimer()
	}
}
