package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// TestImportMovesStatusAsTheStatusCommandDoes: with --apply-status an
// update's fields go in one PATCH and its status move in another, made by
// client.MoveStatus, the status command's path: the move names the version
// it lands on (If-Match with the ETag of import's own PATCH, or the
// updated_at the plan read), so a change someone made since is not
// overwritten. A row already at the sheet's status is not moved.
func TestImportMovesStatusAsTheStatusCommandDoes(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	type patch struct{ body, ifMatch, ifUpdatedAt string }
	var mu sync.Mutex
	var patches []patch
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch {
			b, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(strings.NewReader(string(b)))
			mu.Lock()
			patches = append(patches, patch{string(b), r.Header.Get("If-Match"), r.Header.Get(api.IfUpdatedAtHeader)})
			mu.Unlock()
		}
		ls.handler.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)

	// 1.1 changes a field and moves; 1.2 only moves.
	sheet := writeSheet(t, "Number,Kind,Title,Priority,Status\n1.1,request,Certificate of incorporation,low,complete\n1.2,request,Board minutes,,complete\n")
	if r := runLive(t, hs.URL, "import", sheet, "--match", "number", "--yes", "--apply-status"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	var fields, moves []patch
	for _, p := range patches {
		if strings.Contains(p.body, `"status"`) {
			moves = append(moves, p)
		} else {
			fields = append(fields, p)
		}
	}
	if len(fields) != 1 || len(moves) != 2 {
		t.Fatalf("PATCHes %+v; want one of fields and two status moves, each on its own", patches)
	}
	for _, m := range moves {
		if strings.TrimSpace(m.body) != `{"status":"complete"}` || (!strings.HasPrefix(m.ifMatch, `"`) && m.ifUpdatedAt == "") {
			t.Errorf("status move %+v: want the status alone, naming the version it changes", m)
		}
	}
	rows := byNumber(liveRows(t, ls.URL))
	if rows["1.1"].Status != api.StatusComplete || rows["1.1"].Priority != api.PriorityLow || rows["1.2"].Status != api.StatusComplete {
		t.Errorf("1.1 %s %s, 1.2 %s; want complete low, complete", rows["1.1"].Status, rows["1.1"].Priority, rows["1.2"].Status)
	}
}

// TestImportDoesNotMoveARowChangedSinceThePlan: someone retitles 1.2
// between the plan and its status move; the move names the version the
// plan read, so it is refused (409), the row keeps its status and the
// colleague's title, and the run exits 5.
func TestImportDoesNotMoveARowChangedSinceThePlan(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	var once sync.Once
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch {
			once.Do(func() {
				edit := httptest.NewRequest(http.MethodPatch, r.URL.String(), strings.NewReader(`{"title":"Board minutes (signed)"}`))
				edit.Header = r.Header.Clone()
				edit.Header.Del("If-Match")
				edit.Header.Del(api.IfUpdatedAtHeader)
				rec := httptest.NewRecorder()
				ls.handler.ServeHTTP(rec, edit)
				if rec.Code != http.StatusOK {
					t.Errorf("the colleague's edit: %d %s", rec.Code, rec.Body)
				}
			})
		}
		ls.handler.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)

	sheet := writeSheet(t, "Number,Kind,Title,Status\n1.2,request,Board minutes,complete\n")
	r := runLive(t, hs.URL, "import", sheet, "--match", "number", "--yes", "--apply-status")
	if r.code != 5 || !strings.Contains(r.err, "changed it meanwhile") {
		t.Fatalf("exit %d, want 5 saying the row changed\n%s", r.code, r.err)
	}
	got := byNumber(liveRows(t, ls.URL))["1.2"]
	if got.Status == api.StatusComplete || got.Title != "Board minutes (signed)" {
		t.Errorf("1.2 is %s %q; want its status kept and the colleague's title", got.Status, got.Title)
	}
}
