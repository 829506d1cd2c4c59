package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/server"
)

// hostileNumbers are request numbers a hostile owning side or server
// could send, each meant to turn the "NUMBER-name" of a second file of
// one name into a path out of the folder.
var hostileNumbers = []string{
	"zz/../../../all-escaped",
	"../../../.config/autostart/x",
	"a/../../x",
	"/abs/x",
	`..\..\x`,
	"..",
	"line\r\nbreak",
	"\u202eevil",
}

// TestDownloadNeverWritesOutsideFolder: whatever a server calls a
// request or a file, `download --all` (and --force) writes only direct
// children of -o, named without separators, control or bidi characters,
// and prints one line per saved file on a pipe.
func TestDownloadNeverWritesOutsideFolder(t *testing.T) {
	t.Parallel()
	db, ids := seededDB(t, filepath.Join("testdata", "hostile-names.yaml"), falconAppliedAt)
	ts := startServerOn(t, db, ids, "falcon", fixedTime, server.Config{})
	for i, number := range hostileNumbers {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			front := renumberingProxy(t, ts.URL, "1.2", number)
			base := t.TempDir()
			dir := filepath.Join(base, "deal", "a", "b")
			for _, force := range []bool{false, true} {
				args := []string{"download", "--all", "-o", dir}
				if force {
					args = append(args, "--force")
				}
				r := run(t, ts, runOpts{env: map[string]string{"DEALCTL_SERVER": front, "DEALCTL_API_KEY": bobFalconKey}}, args...)
				r.must(t, 0)
				lines := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
				if len(lines) != 9 {
					t.Errorf("number %q: %d lines on stdout for 9 files:\n%s", number, len(lines), r.out)
				}
				for _, l := range lines {
					if filepath.Dir(l) != dir {
						t.Errorf("number %q: printed path %q is not in %s", number, l, dir)
					}
				}
			}
			assertOnlyDirectChildren(t, base, dir, 9)
		})
	}
}

// assertOnlyDirectChildren fails unless every file under base is a
// direct child of dir with a plain name, and there are want of them.
func assertOnlyDirectChildren(t *testing.T, base, dir string, want int) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		name := filepath.Base(p)
		if filepath.Dir(p) != dir {
			t.Errorf("%s written outside %s", p, dir)
		}
		if strings.ContainsAny(name, "\r\n\\\u202e") || strings.HasPrefix(name, ".") || strings.EqualFold(name, "CON") {
			t.Errorf("unsafe name %q", name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Errorf("%d files saved, want %d", n, want)
	}
}

// renumberingProxy is a hostile server in front of api: it answers as api
// does, but calls the request numbered from by the number to.
func renumberingProxy(t *testing.T, api, from, to string) string {
	t.Helper()
	target, err := url.Parse(api)
	if err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(to)
	old, new := []byte(`"number":"`+from+`"`), append([]byte(`"number":`), quoted...)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		out := r.Clone(r.Context())
		out.URL.Scheme, out.URL.Host, out.RequestURI = target.Scheme, target.Host, ""
		out.Header.Del("If-None-Match") // always a body to rewrite
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		body = bytes.ReplaceAll(body, old, new)
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(resp.StatusCode)
		w.Write(body)
	}))
	t.Cleanup(front.Close)
	return front.URL
}

// TestDownloadOfNothingFails: a request whose files are all still being
// scanned (exit 5) or that has only links (exit 3) is not a success with
// nothing saved, which a script would take for one.
func TestDownloadOfNothingFails(t *testing.T) {
	t.Parallel()
	db, ids := seededDB(t, filepath.Join("testdata", "hostile-names.yaml"), falconAppliedAt)
	ts := startServerOn(t, db, ids, "falcon", fixedTime, server.Config{})
	dir := filepath.Join(t.TempDir(), "dl")
	env := map[string]string{"DEALCTL_API_KEY": bobFalconKey}
	r := run(t, ts, runOpts{env: env}, "download", "1.4", "-o", dir)
	if r.code != cmdutil.ExitConflict || !strings.Contains(r.err, "nothing was saved: 1.4's file is still being scanned") {
		t.Errorf("pending only: exit %d, stderr %q", r.code, r.err)
	}
	r = run(t, ts, runOpts{env: env}, "download", "1.5", "-o", dir)
	if r.code != cmdutil.ExitNotFound || !strings.Contains(r.err, "1.5 has no files to download, only links") {
		t.Errorf("links only: exit %d, stderr %q", r.code, r.err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("a folder was made for nothing")
	}
}
