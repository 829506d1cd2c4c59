package server_test

import (
	"net/http"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// TestNULCharactersAreRefused: PostgreSQL cannot store a NUL in text, so
// both backends refuse one with a 422 naming the field, instead of a 500
// on one of them.
func TestNULCharactersAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	olivia.post(requestsPath(falcon), map[string]any{"title": "a\u0000b"}).want(http.StatusUnprocessableEntity).wantField("title", api.FieldInvalid)
	olivia.post(requestsPath(falcon), map[string]any{"title": "ok", "requester": "Lex\u0000"}).want(http.StatusUnprocessableEntity).wantField("requester", api.FieldInvalid)
	olivia.post(requestsPath(falcon), map[string]any{"title": "ok", "body": "\u0000"}).want(http.StatusUnprocessableEntity).wantField("body", api.FieldInvalid)
	row := olivia.post(requestsPath(falcon), map[string]any{"title": "fine"}).want(http.StatusCreated).request()
	olivia.post(messagesPath(falcon, row.ID), map[string]any{"text": "x\u0000"}).want(http.StatusUnprocessableEntity).wantField("text", api.FieldInvalid)
	olivia.post(messagesPath(falcon, row.ID), map[string]any{"text": "x", "links": []map[string]any{{"url": "https://a.example/", "label": "\u0000"}}}).
		want(http.StatusUnprocessableEntity).wantField("links[0].label", api.FieldInvalid)
	olivia.do(http.MethodPatch, requestPath(falcon, row.ID), map[string]any{"number": "9\u00009"}).want(http.StatusUnprocessableEntity).wantField("number", api.FieldInvalid)
}
