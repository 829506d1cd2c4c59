package cli

import (
	"errors"
	"strings"
	"testing"
)

func TestListenSaysWhatIsWrongWithAddr(t *testing.T) {
	_, err := listen("nonsense")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != ExitUsage || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Fatalf("a malformed --addr: %v, want a usage error naming HOST:PORT", err)
	}
	ln, err := listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = listen(ln.Addr().String())
	if err == nil || !strings.Contains(err.Error(), "in use") || errors.As(err, &ee) {
		t.Fatalf("a taken address: %v, want a failure saying it is in use", err)
	}
}
