package serve

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// TestServeMailFlagsNeedTheDomain: a mail door without the domain of its
// addresses, or a short webhook secret, is a usage mistake, found before
// any database is opened.
func TestServeMailFlagsNeedTheDomain(t *testing.T) {
	for _, o := range []*serveOptions{
		{mailIn: "127.0.0.1:0"},
		{mailInSecret: "0123456789abcdef"},
		{mailDomain: "reply@example.com"},
		{mailDomain: "reply.example.com", mailInSecret: "short"},
	} {
		o.addr, o.rateLimit, o.logFormat, o.schemaCheck = "127.0.0.1:0", 600, "text", time.Second
		o.db = filepath.Join(t.TempDir(), "never.db")
		err := runServe(context.Background(), o, nil, nil)
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
}

// TestServeTakesMailOnMailIn: serve --mail-in answers SMTP as the reply
// domain's server and refuses an address it did not make, and serves the
// confirmation page's path beside the API.
func TestServeTakesMailOnMailIn(t *testing.T) {
	t.Setenv("DEALCTL_NOTIFY_URL", "")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mailAddr := ln.Addr().String()
	ln.Close()
	o := &serveOptions{db: filepath.Join(t.TempDir(), "deals.db"), addr: "127.0.0.1:0", rateLimit: 600, logFormat: "text",
		shutdownTimeout: time.Second, schemaCheck: time.Second, mailDomain: "reply.example.com", mailIn: mailAddr}
	lines, logs := startServe(t, o)
	conn, err := net.DialTimeout("tcp", mailAddr, 5*time.Second)
	if err != nil {
		t.Fatalf("--mail-in %s does not listen: %v\n%s", mailAddr, err, logs.String())
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	expect := func(send, code string) {
		t.Helper()
		if send != "" {
			conn.Write([]byte(send + "\r\n"))
		}
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("after %q: %v", send, err)
			}
			if len(line) >= 4 && line[3] == '-' {
				continue
			}
			if !strings.HasPrefix(line, code) {
				t.Fatalf("after %q: %q, want %s", send, line, code)
			}
			return
		}
	}
	expect("", "220")
	expect("EHLO test.example", "250")
	expect("MAIL FROM:<a@b.example>", "250")
	expect("RCPT TO:<reply+"+strings.Repeat("a", 48)+"@reply.example.com>", "550")
	expect("QUIT", "221")

	api := regexp.MustCompile(`on (http://\S+) `).FindStringSubmatch(lines[len(lines)-1])[1]
	res, err := http.Get(api + "/mail/confirm/nothing.here")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("the confirmation path: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if !strings.Contains(logs.String(), "taking replies by e-mail") {
		t.Errorf("the log does not say mail is taken:\n%s", logs.String())
	}
}
