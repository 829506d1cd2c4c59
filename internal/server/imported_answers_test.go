package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// TestImportedAnswers (extension imported-answers): an owning-party
// member's post with source import is shown as imported, in plain text, on
// both sides, and tells the other side where it came from; anyone else's
// is refused and writes nothing.
func TestImportedAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	ext := e.as(t, "olivia-write").get("/api/v1/me").want(http.StatusOK).header.Get(api.ExtensionsHeader)
	if !strings.Contains(ext, api.ExtImportedAnswers) {
		t.Errorf("extensions %q do not advertise %s", ext, api.ExtImportedAnswers)
	}
	// The counterparty's workers may post, but not as imported; a viewer
	// may not post at all.
	for _, key := range []string{"bella-write", "ben-write"} {
		e.as(t, key).post(messagesPath(falcon, id), map[string]any{"text": "from the sheet", "source": "import"}).
			wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonImportNotAllowed)
	}
	for _, key := range []string{"bianca-write", "owen-write"} {
		e.as(t, key).post(messagesPath(falcon, id), map[string]any{"text": "from the sheet", "source": "import"}).
			wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotPost)
	}
	if msgs := e.as(t, "olivia-write").get(messagesPath(falcon, id)).want(http.StatusOK).messages(); len(msgs) != 0 {
		t.Fatalf("refused imports wrote %d messages", len(msgs))
	}
	if n := notifications(t, e, "falcon"); len(n) != 0 {
		t.Errorf("refused imports queued %d notifications", len(n))
	}
	// Only the sources of the API's own door may be named.
	for _, source := range []string{"email", "web", "sheet"} {
		e.as(t, "oscar-write").post(messagesPath(falcon, id), map[string]any{"text": "x", "source": source}).
			wantField("source", api.FieldUnknownValue)
	}

	m := e.as(t, "oscar-write").post(messagesPath(falcon, id), map[string]any{
		"text": "Accounts are in *folder* 4.", "source": "import", "update_status": false,
	}).want(http.StatusCreated).message()
	if m.Source != api.SourceImport || m.Format != api.FormatText || m.Author == nil || m.Author.ID != e.person("falcon/oscar") {
		t.Errorf("imported answer = %+v, want source import, plain text, by oscar", m)
	}
	for _, key := range []string{"olivia-write", "bella-write"} {
		msgs := e.as(t, key).get(messagesPath(falcon, id)).want(http.StatusOK).messages()
		if len(msgs) != 1 || msgs[0].Source != api.SourceImport {
			t.Errorf("%s sees %+v, want the imported answer", key, msgs)
		}
		row := e.as(t, key).get(requestPath(falcon, id)).want(http.StatusOK).request()
		if row.LatestAnswer == nil || row.LatestAnswer.Source != api.SourceImport || row.Status != api.StatusOpen {
			t.Errorf("%s: row %s with latest_answer %+v, want open with the imported answer", key, row.Status, row.LatestAnswer)
		}
	}
	n := notifications(t, e, "falcon")
	if len(n) != 3 || !strings.Contains(n[0].Body, "(imported from a spreadsheet)") {
		t.Errorf("notifications %+v, want the other side's three, saying it was imported", n)
	}
	// "api" is what a post is anyway.
	if m := e.as(t, "ben-write").post(messagesPath(falcon, id), map[string]any{"text": "typed", "source": "api"}).want(http.StatusCreated).message(); m.Source != api.SourceAPI {
		t.Errorf("source api posted as %s", m.Source)
	}
}
