package server_test

import (
	"bytes"
	"mime"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// Seeded files of falcon 1.1 (message/file index).
const (
	certPDF   = "falcon/1.1/0/file/0" // scanned
	scanTXT   = "falcon/1.1/0/file/1" // not scanned yet
	registry  = "falcon/1.1/0/link/0" // a link
	ownerNote = "falcon/1.1/1/file/0" // on the owner's internal note
)

func TestFilesAsEachSideSeesThem(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/1.1")
	for key, want := range map[string][]string{
		"bella-write":  {registry, certPDF, scanTXT},
		"olivia-write": {registry, certPDF, scanTXT, ownerNote},
	} {
		row := e.as(t, key).get(requestPath(falcon, id)).want(http.StatusOK).request()
		var got []string
		for _, f := range row.Files {
			got = append(got, f.VersionID)
		}
		var wantIDs []string
		for _, w := range want {
			wantIDs = append(wantIDs, e.fileID(w))
		}
		if !slices.Equal(got, wantIDs) {
			t.Errorf("%s: files %v, want %v", key, got, want)
		}
		byID := map[string]api.File{}
		for _, f := range row.Files {
			byID[f.VersionID] = f
		}
		cert := byID[e.fileID(certPDF)]
		if cert.Kind != api.FileKindFile || cert.Name == nil || *cert.Name != "cert.pdf" || !cert.Downloadable ||
			cert.Size == nil || *cert.Size != fileSize(t, "testdata/files/cert.pdf") || cert.ContentType == nil || *cert.ContentType != "application/pdf" || cert.URL != nil {
			t.Errorf("%s: cert.pdf = %+v", key, cert)
		}
		scan := byID[e.fileID(scanTXT)]
		if scan.Downloadable || scan.Name == nil || *scan.Name != "scan.txt" {
			t.Errorf("%s: a file still being scanned = %+v, want listed by name and not downloadable", key, scan)
		}
		link := byID[e.fileID(registry)]
		if link.Kind != api.FileKindLink || link.URL == nil || *link.URL != "https://example.com/registry" || link.Downloadable || *link.Name != "Registry" {
			t.Errorf("%s: link = %+v", key, link)
		}
		// Messages carry the same files.
		msgs := e.as(t, key).get(messagesPath(falcon, id)).want(http.StatusOK).messages()
		if len(msgs[0].Files) != 3 {
			t.Errorf("%s: first message has files %+v", key, msgs[0].Files)
		}
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// fetch gets a download link's url without any key.
func fetch(t *testing.T, e *env, url string) *resp {
	t.Helper()
	path, ok := strings.CutPrefix(url, e.ts.URL)
	if !ok || !strings.HasPrefix(path, "/dl/") {
		t.Fatalf("download url %q is not {base_url}/dl/{token} with base %s", url, e.ts.URL)
	}
	return e.anon(t).get(path)
}

func TestDownloadLink(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	want, err := os.ReadFile("testdata/files/cert.pdf")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"olivia-write", "olivia-read", "bella-write", "bianca-write", "bella-read"} {
		t.Run(key, func(t *testing.T) {
			var link api.DownloadLink
			e.as(t, key).post(linkPath(falcon, e.fileID(certPDF)), nil).want(http.StatusOK).into(&link)
			now := e.clock.Now()
			if link.Filename != "cert.pdf" || link.Size != int64(len(want)) || link.ContentType != "application/pdf" {
				t.Errorf("link = %+v", link)
			}
			if life := link.ExpiresAt.Sub(now); life <= 0 || life > time.Minute {
				t.Errorf("expires_at %v is %v after now, want within a minute", link.ExpiresAt, life)
			}
			r := fetch(t, e, link.URL).want(http.StatusOK)
			if !bytes.Equal(r.body, want) {
				t.Errorf("downloaded %d bytes, want the %d of cert.pdf", len(r.body), len(want))
			}
			if ct := r.header.Get("Content-Type"); ct != "application/pdf" {
				t.Errorf("Content-Type = %q", ct)
			}
			if cl := r.header.Get("Content-Length"); cl != strconv.Itoa(len(want)) {
				t.Errorf("Content-Length = %q, want %d", cl, len(want))
			}
			disp, params, err := mime.ParseMediaType(r.header.Get("Content-Disposition"))
			if err != nil || disp != "attachment" || params["filename"] != "cert.pdf" {
				t.Errorf("Content-Disposition = %q", r.header.Get("Content-Disposition"))
			}
			// Within its lifetime the link works again; after it, it is refused.
			e.clock.Advance(59 * time.Second)
			fetch(t, e, link.URL).want(http.StatusOK)
			e.clock.Advance(time.Second)
			fetch(t, e, link.URL).wantErr(http.StatusForbidden, api.CodeForbidden, "link_expired")
		})
	}
}

func TestTamperedDownloadLinkIs403(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var link api.DownloadLink
	e.as(t, "bella-write").post(linkPath(e.deal("falcon"), e.fileID(certPDF)), nil).want(http.StatusOK).into(&link)
	payload, sig, ok := strings.Cut(strings.TrimPrefix(link.URL, e.ts.URL+"/dl/"), ".")
	if !ok {
		t.Fatalf("token %q has no signature part", link.URL)
	}
	flip := func(s string) string {
		b := []byte(s)
		if b[len(b)/2] == 'A' {
			b[len(b)/2] = 'B'
		} else {
			b[len(b)/2] = 'A'
		}
		return string(b)
	}
	for _, token := range []string{
		flip(payload) + "." + sig,
		payload + "." + flip(sig),
		payload,
		payload + ".",
		"not-a-token",
	} {
		e.anon(t).get("/dl/"+token).wantErr(http.StatusForbidden, api.CodeForbidden, "")
	}
}

func TestFilesThatCannotBeDownloaded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	for _, key := range []string{"bella-write", "olivia-write"} {
		c := e.as(t, key)
		c.post(linkPath(falcon, e.fileID(scanTXT)), nil).wantErr(http.StatusConflict, api.CodeConflict, api.ReasonNotDownloadable)
		c.post(linkPath(falcon, e.fileID(registry)), nil).wantErr(http.StatusConflict, api.CodeConflict, api.ReasonNotDownloadable)
	}
	// A file on a message the caller cannot see does not exist for it.
	for _, key := range []string{"bella-write", "ben-write", "bella-read"} {
		e.as(t, key).post(linkPath(falcon, e.fileID(ownerNote)), nil).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	}
	var link api.DownloadLink
	e.as(t, "owen-write").post(linkPath(falcon, e.fileID(ownerNote)), nil).want(http.StatusOK).into(&link)
	if r := fetch(t, e, link.URL).want(http.StatusOK); string(r.body) != "owner side working notes" {
		t.Errorf("owner note file = %q", r.body)
	}
	// The owner's file cannot be reached by the counterparty on a deal it is
	// not on, nor through another deal's path.
	e.as(t, "carl-write").post(linkPath(e.deal("osprey"), e.fileID(certPDF)), nil).wantErr(http.StatusNotFound, api.CodeNotFound, "")
}
