package server_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/world"
)

func TestPostedMessageIsFromTheAPIInMarkdown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	e.clock.Advance(time.Minute)
	label := "Data room"
	m := e.as(t, "ben-write").post(messagesPath(falcon, id), map[string]any{
		"text":  "See **the** accounts.",
		"links": []map[string]any{{"url": "https://example.com/a", "label": label}, {"url": "https://example.com/b"}},
	}).want(http.StatusCreated).message()
	if m.Source != api.SourceAPI || m.Format != api.FormatMarkdown || m.Kind != api.MessageResponse || m.Internal || m.Partial || m.OnBehalf {
		t.Errorf("message = %+v, want a shared api response in markdown", m)
	}
	if m.Author == nil || m.Author.ID != e.person("falcon/ben") || m.Author.Email != "ben@acme.example" {
		t.Errorf("author = %+v, want ben's person", m.Author)
	}
	if m.PostedAt == nil || !m.PostedAt.Equal(e.clock.Now()) {
		t.Errorf("posted_at = %v, want %v", m.PostedAt, e.clock.Now())
	}
	if len(m.Files) != 2 || m.Files[0].Kind != api.FileKindLink || *m.Files[0].URL != "https://example.com/a" ||
		*m.Files[0].Name != label || m.Files[0].Downloadable || *m.Files[1].URL != "https://example.com/b" {
		t.Errorf("files = %+v, want the two links", m.Files)
	}
	// Both sides see it the same way, and it is the request's latest answer.
	for _, key := range []string{"olivia-write", "bella-write"} {
		msgs := e.as(t, key).get(messagesPath(falcon, id)).want(http.StatusOK).messages()
		if len(msgs) != 1 || msgs[0].ID != m.ID || msgs[0].Source != api.SourceAPI {
			t.Errorf("%s sees %+v", key, msgs)
		}
		row := e.as(t, key).get(requestPath(falcon, id)).want(http.StatusOK).request()
		if row.LatestAnswer == nil || row.LatestAnswer.MessageID != m.ID || row.LatestAnswer.Source != api.SourceAPI {
			t.Errorf("%s: latest_answer = %+v", key, row.LatestAnswer)
		}
		if len(row.Files) != 2 {
			t.Errorf("%s: request files = %+v, want the two links", key, row.Files)
		}
	}
}

func TestSeededMessagesKeepTheirSourceAndFormat(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	msgs := e.as(t, "olivia-write").get(messagesPath(e.deal("falcon"), e.row("falcon/1.1"))).want(http.StatusOK).messages()
	if len(msgs) != 4 {
		t.Fatalf("%d messages, want 4", len(msgs))
	}
	if msgs[0].Source != api.SourceEmail || msgs[0].Format != api.FormatText {
		t.Errorf("emailed reply: source %s format %s, want email/text", msgs[0].Source, msgs[0].Format)
	}
	if msgs[1].Source != api.SourceWeb || msgs[1].Format != api.FormatMarkdown {
		t.Errorf("web note: source %s format %s, want web/markdown", msgs[1].Source, msgs[1].Format)
	}
	for i := 1; i < len(msgs); i++ {
		if !msgs[i-1].PostedAt.Before(*msgs[i].PostedAt) {
			t.Errorf("messages not oldest first: %v then %v", msgs[i-1].PostedAt, msgs[i].PostedAt)
		}
	}
}

func TestEmptyMessageIs400(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	ben := e.as(t, "ben-write")
	for _, body := range []map[string]any{
		{},
		{"text": ""},
		{"text": "   \n\t "},
		{"text": "\u00a0\u2003"},
		{"text": " ", "links": []any{}},
		{"kind": "question"},
	} {
		ben.post(messagesPath(falcon, id), body).wantErr(http.StatusBadRequest, api.CodeBadRequest, api.ReasonEmptyMessage)
	}
	if msgs := ben.get(messagesPath(falcon, id)).want(http.StatusOK).messages(); len(msgs) != 0 {
		t.Errorf("empty posts wrote %d messages", len(msgs))
	}
	// Links alone make a message.
	m := ben.post(messagesPath(falcon, id), map[string]any{"text": "  ", "links": []map[string]any{{"url": "https://example.com/x"}}}).
		want(http.StatusCreated).message()
	if len(m.Files) != 1 {
		t.Errorf("files = %+v", m.Files)
	}
}

func TestLinkValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	ben := e.as(t, "ben-write")
	good := map[string]any{"url": "https://example.com/ok"}
	links := func(bad map[string]any) []map[string]any { return []map[string]any{good, good, good, bad} }
	cases := []struct {
		name  string
		links any
		path  string
		code  string
	}{
		{"http", links(map[string]any{"url": "http://example.com/x"}), "links[3].url", api.FieldNotHTTPS},
		{"ftp", links(map[string]any{"url": "ftp://example.com/x"}), "links[3].url", api.FieldNotHTTPS},
		{"no url", links(map[string]any{"label": "x"}), "links[3].url", api.FieldRequired},
		{"not a url", links(map[string]any{"url": "example dot com"}), "links[3].url", api.FieldInvalid},
		{"url too long", links(map[string]any{"url": "https://example.com/" + strings.Repeat("a", 2029)}), "links[3].url", api.FieldTooLong},
		{"label too long", links(map[string]any{"url": "https://example.com/x", "label": strings.Repeat("l", 201)}), "links[3].label", api.FieldTooLong},
		{"too many", slices.Repeat([]map[string]any{good}, 21), "links", api.FieldTooMany},
		{"links not an array", "https://example.com", "links", api.FieldInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.as(t, "ben-write").post(messagesPath(falcon, id), map[string]any{"text": "x", "links": c.links}).wantField(c.path, c.code)
		})
	}
	ben.post(messagesPath(falcon, id), map[string]any{"text": "x", "links": slices.Repeat([]map[string]any{good}, 20)}).want(http.StatusCreated)
	ben.post(messagesPath(falcon, id), map[string]any{"text": "x", "links": []map[string]any{
		{"url": "https://example.com/" + strings.Repeat("a", 2028), "label": strings.Repeat("l", 200)}}}).want(http.StatusCreated)
	ben.post(messagesPath(falcon, id), map[string]any{"text": strings.Repeat("t", 20001)}).wantField("text", api.FieldTooLong)
	ben.post(messagesPath(falcon, id), map[string]any{"text": "x", "kind": "memo"}).wantField("kind", api.FieldUnknownValue)
	ben.post(messagesPath(falcon, id), map[string]any{"text": "x", "partial": "yes"}).wantField("partial", api.FieldInvalid)
	if msgs := ben.get(messagesPath(falcon, id)).want(http.StatusOK).messages(); len(msgs) != 2 {
		t.Errorf("%d messages, want only the 2 valid posts", len(msgs))
	}
}

func TestWhoMayPost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	for _, key := range []string{"owen-write", "bianca-write"} {
		e.as(t, key).post(messagesPath(falcon, id), map[string]any{"text": "x"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotPost)
	}
	e.as(t, "ben-write").post(messagesPath(falcon, e.row("falcon/2")), map[string]any{"text": "x"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotPost)
	if msgs := e.as(t, "olivia-write").get(messagesPath(falcon, id)).want(http.StatusOK).messages(); len(msgs) != 0 {
		t.Errorf("refused posts wrote %d messages", len(msgs))
	}
}

// TestCounterpartyHasNoPrivateNotes: its internal posts are refused and
// write nothing: no message, no status move, no notification.
func TestCounterpartyHasNoPrivateNotes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	for _, key := range []string{"bella-write", "ben-write"} {
		for _, body := range []map[string]any{
			{"text": "secret", "internal": true},
			{"text": "secret", "kind": "internal_note"},
			{"text": "secret", "kind": "internal_note", "internal": false},
			{"text": "secret", "kind": "response", "internal": true, "partial": true},
		} {
			e.as(t, key).post(messagesPath(falcon, id), body).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonInternalNotAllowed)
		}
	}
	for _, key := range []string{"olivia-write", "bella-write"} {
		if msgs := e.as(t, key).get(messagesPath(falcon, id)).want(http.StatusOK).messages(); len(msgs) != 0 {
			t.Errorf("%s sees %d messages after refused internal posts", key, len(msgs))
		}
	}
	if row := e.as(t, "olivia-write").get(requestPath(falcon, id)).want(http.StatusOK).request(); row.Status != api.StatusOpen {
		t.Errorf("status = %s after refused posts", row.Status)
	}
	if n := notifications(t, e, "falcon"); len(n) != 0 {
		t.Errorf("%d notifications after refused posts", len(n))
	}
	// The owning side keeps notes to itself.
	for _, body := range []map[string]any{{"text": "ours", "internal": true}, {"text": "ours", "kind": "internal_note"}} {
		m := e.as(t, "oscar-write").post(messagesPath(falcon, id), body).want(http.StatusCreated).message()
		if !m.Internal {
			t.Errorf("%v posted as %+v, want internal", body, m)
		}
	}
	if msgs := e.as(t, "bella-write").get(messagesPath(falcon, id)).want(http.StatusOK).messages(); len(msgs) != 0 {
		t.Errorf("the counterparty sees %d of the owner's internal messages", len(msgs))
	}
	// JSON names are case-sensitive: "Internal" is an unknown field, so
	// this is a shared post, and "Text" is no text.
	if m := e.as(t, "ben-write").post(messagesPath(falcon, id), `{"text":"shared","Internal":true,"KIND":"internal_note"}`).want(http.StatusCreated).message(); m.Internal || m.Kind != api.MessageResponse {
		t.Errorf("differently cased keys were taken for fields: %+v", m)
	}
	e.as(t, "ben-write").post(messagesPath(falcon, id), `{"Text":"x"}`).wantErr(http.StatusBadRequest, api.CodeBadRequest, api.ReasonEmptyMessage)
	e.as(t, "ben-write").post(messagesPath(falcon, id), `{"text":"x","links":[{"URL":"https://example.com"}]}`).wantField("links[0].url", api.FieldRequired)
}

// TestCounterpartyNeverSeesOwnerInternals: the seeded 1.1 has an internal
// note with a file and an internal response, both the owner's.
func TestCounterpartyNeverSeesOwnerInternals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/1.1")
	note := e.ref(world.RefMessage, "falcon/1.1/1")
	internalResponse := e.ref(world.RefMessage, "falcon/1.1/2")
	ownerFile := e.fileID("falcon/1.1/1/file/0")
	for _, key := range []string{"bella-write", "ben-write", "bianca-write", "bella-read"} {
		c := e.as(t, key)
		msgs := c.get(messagesPath(falcon, id)).want(http.StatusOK)
		for _, m := range msgs.messages() {
			if m.Internal || m.ID == note || m.ID == internalResponse {
				t.Errorf("%s sees the owner's internal message %+v", key, m)
			}
		}
		if len(msgs.messages()) != 2 {
			t.Errorf("%s sees %d messages, want the 2 shared", key, len(msgs.messages()))
		}
		for _, body := range [][]byte{msgs.body, c.get(requestsPath(falcon)).want(http.StatusOK).body, c.get(requestPath(falcon, id)).want(http.StatusOK).body} {
			for _, secret := range []string{"Owner only", "owner-notes.txt", ownerFile, note, internalResponse} {
				if strings.Contains(string(body), secret) {
					t.Errorf("%s: an answer contains %q", key, secret)
				}
			}
		}
		row := c.get(requestPath(falcon, id)).want(http.StatusOK).request()
		if row.LatestAnswer == nil || row.LatestAnswer.MessageID != e.ref(world.RefMessage, "falcon/1.1/0") {
			t.Errorf("%s: latest_answer = %+v, want bella's shared response", key, row.LatestAnswer)
		}
		if strings.Contains(string(c.get(requestsPath(falcon)).want(http.StatusOK).body), `"internal":true`) {
			t.Errorf("%s: a latest answer is marked internal", key)
		}
	}
	// The owner sees everything, and its own internal response is its
	// latest answer.
	olivia := e.as(t, "owen-write")
	if msgs := olivia.get(messagesPath(falcon, id)).want(http.StatusOK).messages(); len(msgs) != 4 {
		t.Errorf("the owner sees %d messages, want 4", len(msgs))
	}
	row := olivia.get(requestPath(falcon, id)).want(http.StatusOK).request()
	if row.LatestAnswer == nil || row.LatestAnswer.MessageID != internalResponse || !row.LatestAnswer.Internal {
		t.Errorf("owner's latest_answer = %+v, want the internal response, marked internal", row.LatestAnswer)
	}
	if !slices.ContainsFunc(row.Files, func(f api.File) bool { return f.VersionID == ownerFile }) {
		t.Error("the owner does not see the file of its internal note")
	}
	// The owner's files and links given with internal messages are marked
	// so, in the conversation and on the row (one and list), so that an
	// export for the other side can leave them out.
	internalFiles := map[string]bool{}
	for _, m := range olivia.get(messagesPath(falcon, id)).want(http.StatusOK).messages() {
		for _, f := range m.Files {
			if f.Internal != m.Internal {
				t.Errorf("file %s on message %s (internal %v) is marked internal %v", f.VersionID, m.ID, m.Internal, f.Internal)
			}
			internalFiles[f.VersionID] = m.Internal
		}
	}
	if !internalFiles[ownerFile] {
		t.Errorf("the internal note's file is not marked internal in the conversation")
	}
	var listed api.DealRequest
	for _, r := range olivia.get(requestsPath(falcon)).want(http.StatusOK).requests() {
		if r.ID == id {
			listed = r
		}
	}
	for what, files := range map[string][]api.File{"GET request": row.Files, "list": listed.Files} {
		if len(files) != len(internalFiles) {
			t.Errorf("%s: %d files on the row, want the %d of the conversation", what, len(files), len(internalFiles))
		}
		for _, f := range files {
			if f.Internal != internalFiles[f.VersionID] {
				t.Errorf("%s: file %s marked internal %v, want %v", what, f.VersionID, f.Internal, internalFiles[f.VersionID])
			}
		}
	}
}

func TestLatestAnswerIsTheNewestVisibleResponseShortened(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	ben, olivia := e.as(t, "ben-write"), e.as(t, "olivia-write")
	long := strings.Repeat("ü", 300) + " end"
	e.clock.Advance(time.Minute)
	first := ben.post(messagesPath(falcon, id), map[string]any{"text": long, "partial": true}).want(http.StatusCreated).message()
	e.clock.Advance(time.Minute)
	ben.post(messagesPath(falcon, id), map[string]any{"text": "a question", "kind": "question"}).want(http.StatusCreated)
	e.clock.Advance(time.Minute)
	internal := olivia.post(messagesPath(falcon, id), map[string]any{"text": "internal reply", "internal": true, "update_status": false}).want(http.StatusCreated).message()

	for key, want := range map[string]string{"ben-write": first.ID, "bella-write": first.ID, "olivia-write": internal.ID} {
		for _, row := range []api.DealRequest{
			e.as(t, key).get(requestPath(falcon, id)).want(http.StatusOK).request(),
			find(t, e.as(t, key).get(requestsPath(falcon)).want(http.StatusOK).requests(), "2.1"),
		} {
			la := row.LatestAnswer
			if la == nil || la.MessageID != want {
				t.Fatalf("%s: latest_answer = %+v, want message %s", key, la, want)
			}
			if la.MessageID == first.ID {
				if n := utf8.RuneCountInString(la.Preview); n > 280 || n < 200 || !strings.HasPrefix(long, strings.TrimSuffix(la.Preview, "…")) {
					t.Errorf("%s: preview of %d characters %q, want at most 280 from the start of the text", key, n, la.Preview)
				}
				if !la.Partial || la.Author == nil || la.Author.ID != e.person("falcon/ben") || la.Source != api.SourceAPI {
					t.Errorf("%s: latest_answer = %+v", key, la)
				}
			}
		}
	}
}

// TestNotificationsAreStoredClean: a title and a message that carry CR/LF,
// an escape sequence and a bidi override reach the outbox (and so every
// notifier, webhooks included) on one line with those shown visibly.
func TestNotificationsAreStoredClean(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	title := "Accounts\r\nBcc: evil@example.net \u202egpj.exe \x1b]52;c;ZXZpbA==\x07"
	e.as(t, "olivia-write").patch(requestPath(falcon, id), map[string]any{"title": title}).want(http.StatusOK)
	m := e.as(t, "ben-write").post(messagesPath(falcon, id), map[string]any{"text": "Here\r\nthey are \x1b[2J\u202e"}).want(http.StatusCreated).message()
	found := 0
	for _, n := range notifications(t, e, "falcon") {
		if n.MessageID != m.ID {
			continue
		}
		found++
		if strings.ContainsAny(n.Subject, "\r\n\x1b\x07\u202e") {
			t.Errorf("subject %q keeps a line break, a control or a bidi override", n.Subject)
		}
		if !strings.Contains(n.Subject, "Accounts Bcc: evil@example.net <U+202E>gpj.exe ␛]52;c;ZXZpbA==␇") {
			t.Errorf("subject %q does not show the title's characters visibly", n.Subject)
		}
		if strings.ContainsAny(n.Body, "\r\x1b\x07\u202e") {
			t.Errorf("body %q keeps a control or a bidi override", n.Body)
		}
		if !strings.Contains(n.Body, "Here\nthey are ␛[2J<U+202E>") {
			t.Errorf("body %q does not show the message's characters visibly", n.Body)
		}
	}
	if found == 0 {
		t.Fatal("the answer wrote no notification")
	}
}

func notifications(t *testing.T, e *env, deal string) []store.Notification {
	t.Helper()
	n, err := e.st.Notifications(context.Background(), e.deal(deal))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestNotifications: a shared post writes one outbox row per joined
// person of the other side; an internal one writes none.
func TestNotifications(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	byMessage := func(msgID string) []string {
		var emails []string
		for _, n := range notifications(t, e, "falcon") {
			if n.MessageID == msgID {
				emails = append(emails, n.Email)
			}
		}
		slices.Sort(emails)
		return emails
	}

	fromBuyer := e.as(t, "ben-write").post(messagesPath(falcon, id), map[string]any{"text": "answer", "partial": true}).want(http.StatusCreated).message()
	if got, want := byMessage(fromBuyer.ID), []string{"olivia@target.example", "oscar@target.example", "owen@target.example"}; !slices.Equal(got, want) {
		t.Errorf("buyer's answer notified %v, want %v", got, want)
	}
	fromOwner := e.as(t, "oscar-write").post(messagesPath(falcon, id), map[string]any{"text": "thanks", "update_status": false}).want(http.StatusCreated).message()
	// bruno never joined.
	if got, want := byMessage(fromOwner.ID), []string{"bella@acme.example", "ben@acme.example", "bianca@acme.example"}; !slices.Equal(got, want) {
		t.Errorf("owner's answer notified %v, want %v", got, want)
	}
	before := len(notifications(t, e, "falcon"))
	e.as(t, "oscar-write").post(messagesPath(falcon, id), map[string]any{"text": "note", "kind": "internal_note"}).want(http.StatusCreated)
	e.as(t, "olivia-write").post(messagesPath(falcon, id), map[string]any{"text": "draft", "internal": true}).want(http.StatusCreated)
	if after := len(notifications(t, e, "falcon")); after != before {
		t.Errorf("internal posts wrote %d notifications", after-before)
	}
	for _, n := range notifications(t, e, "falcon") {
		if n.DeliveredAt != nil || n.PersonID == "" || n.Subject == "" {
			t.Errorf("outbox row %+v", n)
		}
	}
}
