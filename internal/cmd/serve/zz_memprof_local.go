//go:build memprof

package serve

import (
	"net/http"
	_ "net/http/pprof"
	"os"
)

func init() {
	if addr := os.Getenv("DEALCTL_PPROF_ADDR"); addr != "" {
		go http.ListenAndServe(addr, nil)
	}
}
