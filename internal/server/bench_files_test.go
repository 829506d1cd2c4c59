package server_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/dealctl/dealctl/internal/server"
)

// BenchmarkDownloadLinkDatabase issues a /dl/{token} link to a file whose
// bytes are in the database.
func BenchmarkDownloadLinkDatabase(b *testing.B) { benchDownloadLink(b, false) }

// BenchmarkDownloadLinkS3 issues a presigned URL to a file in versitygw:
// it should cost what the database's link costs, no call reaching the
// store.
func BenchmarkDownloadLinkS3(b *testing.B) { benchDownloadLink(b, true) }

func benchDownloadLink(b *testing.B, s3 bool) {
	// A limit no benchmark reaches: the figure is the link's cost.
	opts := []func(*server.Config){func(c *server.Config) { c.RateLimit = 1 << 30 }}
	if s3 {
		opts = append(opts, func(c *server.Config) {
			c.Objects = moveFilesToS3(b, storeOf(c))
		})
	}
	e := newEnv(b, opts...)
	url := e.ts.URL + linkPath(e.deal("falcon"), e.fileID(certPDF))
	secret := e.secret("bella-write")
	c := e.ts.Client()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, url, nil)
		req.Header.Set("Authorization", "Bearer "+secret)
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("download-link answered %d", resp.StatusCode)
		}
	}
}
