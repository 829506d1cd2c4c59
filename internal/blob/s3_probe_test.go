package blob_test

import (
	"context"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dealctl/dealctl/internal/blob"
)

// TestOpenS3ChecksOnce: the start-up check (and so /readyz, which runs
// the same Check) makes one attempt at a store that fails, rather than
// minio-go's ten retries with backoff, about 5 s before it said anything.
// The endpoint here accepts each connection and closes it at once.
func TestOpenS3ChecksOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var connections atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			connections.Add(1)
			c.Close()
		}
	}()
	t.Setenv("AWS_ACCESS_KEY_ID", "probe")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "probe-secret")
	_, err = blob.OpenS3(context.Background(), "s3://bkt/x?endpoint=http://"+ln.Addr().String()+"&path-style=true&region=us-east-1")
	if err == nil || !strings.Contains(err.Error(), "cannot reach the object store") {
		t.Errorf("a store that hangs up: %v, want cannot reach the object store", err)
	}
	if n := connections.Load(); n != 1 {
		t.Errorf("the check connected %d times, want once", n)
	}
}
