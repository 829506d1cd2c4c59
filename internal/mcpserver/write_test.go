package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dealctl/dealctl/internal/api"
)

var writeTools = []string{"answer", "move_status", "assign", "create_request", "edit_request"}

func TestWritesOnlyWithAllowWrites(t *testing.T) {
	a := startAPI(t)
	reads := a.session(t, aliceKey, sessionOptions{}).toolNames()
	for _, name := range writeTools {
		if _, ok := reads[name]; ok {
			t.Errorf("%s is offered without --allow-writes", name)
		}
	}
	for name, tool := range reads {
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("read tool %s is not marked read-only: %+v", name, tool.Annotations)
		}
	}
	all := a.session(t, aliceKey, sessionOptions{allowWrites: true}).toolNames()
	for _, name := range writeTools {
		tool, ok := all[name]
		if !ok {
			t.Fatalf("%s is not offered with --allow-writes", name)
		}
		if tool.Annotations.ReadOnlyHint || tool.Annotations.DestructiveHint == nil {
			t.Errorf("write tool %s: annotations %+v", name, tool.Annotations)
		}
	}
	if !*all["move_status"].Annotations.DestructiveHint || *all["answer"].Annotations.DestructiveHint {
		t.Errorf("destructive hints: move_status %v, answer %v", *all["move_status"].Annotations.DestructiveHint, *all["answer"].Annotations.DestructiveHint)
	}
	// Calling a write tool that is not offered is refused, and writes nothing.
	res, err := a.session(t, aliceKey, sessionOptions{}).cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "answer",
		Arguments: map[string]any{"request": "1.1", "text": "hi"}})
	if err == nil && !res.IsError {
		t.Errorf("answer without --allow-writes: %v", text(res))
	}
	if w := a.writesTo("/messages"); len(w) != 0 {
		t.Errorf("writes: %v", w)
	}
}

// messageCount is how many messages key sees on request n.
func (a *liveAPI) messageCount(t *testing.T, key, n string) int {
	t.Helper()
	ms, err := a.client(t, key).Messages(t.Context(), a.dealID(), a.requestID(n))
	if err != nil {
		t.Fatal(err)
	}
	return len(ms)
}

// TestAnswerWithTokenPostsOnce: the first call previews and writes
// nothing; the confirmed call posts; every repeat, of the confirmation or
// of the whole exchange, posts nothing more.
func TestAnswerWithTokenPostsOnce(t *testing.T) {
	a := startAPI(t)
	s := a.session(t, bobKey, sessionOptions{allowWrites: true})
	args := map[string]any{"request": "1.1", "text": "Attached the certificate.", "partial": true,
		"links": []map[string]any{{"url": "https://example.com/cert", "label": "Registry"}}}
	before := a.messageCount(t, aliceKey, "1.1")

	preview := callOK[WriteOut](s, "answer", args)
	if preview.Status != "needs_confirmation" || preview.ConfirmationToken == "" || preview.Preview.VisibleTo == "" ||
		!strings.Contains(preview.Preview.As, "Bob Reyes") || !strings.Contains(preview.Preview.As, "buy side") ||
		preview.Preview.Text != "Attached the certificate." || len(preview.Preview.Changes) != 1 {
		t.Fatalf("preview = %+v", preview)
	}
	if w := a.writesTo("/messages"); len(w) != 0 {
		t.Fatalf("the preview wrote: %v", w)
	}

	args["confirmation_token"] = preview.ConfirmationToken
	done := callOK[WriteOut](s, "answer", args)
	if done.Status != "written" || done.Message == nil || !done.Message.Partial || done.Request.Status != "partial" {
		t.Fatalf("confirmed = %+v", done)
	}
	again := callOK[WriteOut](s, "answer", args)
	if !again.Replayed || again.Message.ID != done.Message.ID {
		t.Errorf("repeated confirmation = %+v", again)
	}
	// The whole exchange again, as a new preview of the same write in
	// this process: answered from what it did.
	delete(args, "confirmation_token")
	args["confirmation_token"] = callOK[WriteOut](s, "answer", args).ConfirmationToken
	if third := callOK[WriteOut](s, "answer", args); !third.Replayed || third.Message.ID != done.Message.ID {
		t.Errorf("a repeated exchange = %+v", third)
	}
	// And in a new process (dealctl mcp restarted): the POST carries the
	// same Idempotency-Key, and the server replays its first answer.
	s2 := a.session(t, bobKey, sessionOptions{allowWrites: true})
	delete(args, "confirmation_token")
	args["confirmation_token"] = callOK[WriteOut](s2, "answer", args).ConfirmationToken
	if fourth := callOK[WriteOut](s2, "answer", args); fourth.Message.ID != done.Message.ID {
		t.Errorf("a restarted exchange posted another message: %+v", fourth.Message)
	}
	if got := a.messageCount(t, aliceKey, "1.1"); got != before+1 {
		t.Errorf("%d messages after, %d before: want one more", got, before)
	}
	posts := a.writesTo("/messages")
	if len(posts) != 2 || posts[0] != posts[1] || !strings.Contains(posts[0], "dealctl-mcp-") {
		t.Errorf("POSTs = %q: want two with one Idempotency-Key", posts)
	}
}

func TestTokenBoundToTheWrite(t *testing.T) {
	a := startAPI(t)
	s := a.session(t, aliceKey, sessionOptions{allowWrites: true})
	preview := callOK[WriteOut](s, "answer", map[string]any{"request": "1.2", "text": "Returns attached."})
	for name, args := range map[string]map[string]any{
		"other text":    {"request": "1.2", "text": "Something else entirely.", "confirmation_token": preview.ConfirmationToken},
		"other request": {"request": "1.1", "text": "Returns attached.", "confirmation_token": preview.ConfirmationToken},
		"forged":        {"request": "1.2", "text": "Returns attached.", "confirmation_token": preview.ConfirmationToken + "x"},
	} {
		res := s.call("answer", args)
		if !res.IsError || !strings.Contains(text(res), "confirmation_token") {
			t.Errorf("%s: %s", name, text(res))
		}
	}
	other := callOK[WriteOut](s, "move_status", map[string]any{"request": "1.2", "status": "complete"})
	res := s.call("answer", map[string]any{"request": "1.2", "text": "Returns attached.", "confirmation_token": other.ConfirmationToken})
	if !res.IsError {
		t.Errorf("another tool's token: %s", text(res))
	}
	if w := a.writesTo(""); len(w) != 0 {
		t.Errorf("writes: %v", w)
	}
}

// TestElicitationAcceptAndDecline, on the newest protocol (the SDK's
// multi round-trip, the client answering in a retried call) and on
// 2025-06-18 (the server asking the client mid-call).
func TestElicitationAcceptAndDecline(t *testing.T) {
	for _, protocol := range []string{"", "2025-06-18"} {
		t.Run("protocol "+protocol, func(t *testing.T) { testElicitation(t, protocol) })
	}
}

func testElicitation(t *testing.T, protocol string) {
	a := startAPI(t)
	var asked []string
	answer := "accept"
	s := a.session(t, aliceKey, sessionOptions{allowWrites: true, elicit: func(r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = append(asked, r.Params.Message)
		return &mcp.ElicitResult{Action: answer, Content: map[string]any{"confirm": answer == "accept"}}, nil
	}, protocol: protocol})
	before := a.messageCount(t, aliceKey, "1.2")

	answer = "decline"
	declined := callOK[WriteOut](s, "answer", map[string]any{"request": "1.2", "text": "Draft reply.", "kind": "internal_note"})
	if declined.Status != "declined" || len(a.writesTo("/messages")) != 0 {
		t.Fatalf("declined = %+v, writes %v", declined, a.writesTo(""))
	}
	answer = "cancel"
	if got := callOK[WriteOut](s, "move_status", map[string]any{"request": "1.2", "status": "complete"}); got.Status != "declined" {
		t.Errorf("cancelled = %+v", got)
	}
	if len(a.writesTo("")) != 0 {
		t.Fatalf("a declined write reached the server: %v", a.writesTo(""))
	}

	answer = "accept"
	done := callOK[WriteOut](s, "answer", map[string]any{"request": "1.2", "text": "Draft reply.", "kind": "internal_note"})
	if done.Status != "written" || done.Message == nil || done.Message.Kind != "internal_note" {
		t.Fatalf("accepted = %+v", done)
	}
	if got := a.messageCount(t, aliceKey, "1.2"); got != before+1 {
		t.Errorf("messages: %d, want %d", got, before+1)
	}
	if len(asked) != 3 {
		t.Fatalf("asked %d times", len(asked))
	}
	for _, want := range []string{"post an internal note", "Falcon", "1.2", "Alice Sato <alice@target.example> (sell side, Target Co)", "your side only", "Draft reply."} {
		if !strings.Contains(asked[2], want) {
			t.Errorf("the confirmation asked %q, without %q", asked[2], want)
		}
	}
}

// TestMoveStatusChangedAfterPreview: a change someone makes between the
// preview and the confirmation is not overwritten.
func TestMoveStatusChangedAfterPreview(t *testing.T) {
	a := startAPI(t)
	s := a.session(t, aliceKey, sessionOptions{allowWrites: true})
	preview := callOK[WriteOut](s, "move_status", map[string]any{"request": "1.1", "status": "complete"})
	if preview.Status != "needs_confirmation" {
		t.Fatalf("preview = %+v", preview)
	}
	bob := a.client(t, bobKey)
	if _, err := bob.UpdateRequest(t.Context(), a.dealID(), a.requestID("1.1"), api.DealRequestUpdate{Status: api.Some(api.StatusPartial)}); err != nil {
		t.Fatal(err)
	}
	res := s.call("move_status", map[string]any{"request": "1.1", "status": "complete", "confirmation_token": preview.ConfirmationToken})
	if !res.IsError || !strings.Contains(text(res), "conflict_stale") {
		t.Fatalf("confirming a stale preview: %s", text(res))
	}
	r, err := bob.Request(t.Context(), a.dealID(), a.requestID("1.1"))
	if err != nil || r.Status != api.StatusPartial {
		t.Errorf("1.1 is %s (%v), want partial as bob left it", r.Status, err)
	}
	// A fresh preview confirms.
	fresh := callOK[WriteOut](s, "move_status", map[string]any{"request": "1.1", "status": "complete"})
	done := callOK[WriteOut](s, "move_status", map[string]any{"request": "1.1", "status": "complete", "confirmation_token": fresh.ConfirmationToken})
	if done.Status != "written" || done.Request.Status != "complete" {
		t.Errorf("confirmed = %+v", done)
	}
	if again := callOK[WriteOut](s, "move_status", map[string]any{"request": "1.1", "status": "complete"}); again.Status != "unchanged" {
		t.Errorf("moving to where it is = %+v", again)
	}
}

// confirmed calls tool, confirms its preview, and returns the answer.
func confirmed(t *testing.T, s *session, tool string, args map[string]any) WriteOut {
	t.Helper()
	preview := callOK[WriteOut](s, tool, args)
	if preview.Status != "needs_confirmation" {
		t.Fatalf("%s preview = %+v", tool, preview)
	}
	args["confirmation_token"] = preview.ConfirmationToken
	return callOK[WriteOut](s, tool, args)
}

func TestAssignCreateEdit(t *testing.T) {
	a := startAPI(t)
	s := a.session(t, aliceKey, sessionOptions{allowWrites: true})
	if got := confirmed(t, s, "assign", map[string]any{"request": "1.2", "assignee": "bob@acme.example"}); got.Request.Assignee == nil ||
		got.Request.Assignee.Email != "bob@acme.example" {
		t.Errorf("assign = %+v", got)
	}
	if got := confirmed(t, s, "assign", map[string]any{"request": "1.2", "assignee": "none"}); got.Request.Assignee != nil {
		t.Errorf("unassign = %+v", got)
	}
	created := confirmed(t, s, "create_request", map[string]any{"title": "Board minutes", "parent": "1", "priority": "high",
		"category": "legal", "due_date": "2026-04-01", "assignee": "me"})
	if created.Status != "written" || created.Request.Number != "1.3" || created.Request.Assignee.Email != "alice@target.example" {
		t.Fatalf("create = %+v", created.Request)
	}
	edited := confirmed(t, s, "edit_request", map[string]any{"request": "1.3", "title": "Board minutes, 2022-2025", "due_date": ""})
	if edited.Request.DealContent.Title.Text != "Board minutes, 2022-2025" || edited.Request.DueDate != "" ||
		len(edited.Preview.Changes) != 2 {
		t.Errorf("edit = %+v", edited)
	}
	// The counterparty may not edit the owning side's request: refused
	// before anything is asked.
	bob := a.session(t, bobKey, sessionOptions{allowWrites: true})
	if res := bob.call("edit_request", map[string]any{"request": "1.1", "title": "Mine now"}); !res.IsError ||
		!strings.Contains(text(res), "may not edit 1.1") {
		t.Errorf("bob's edit_request: %s", text(res))
	}
	// Nor create requests: the server refuses the confirmed write, and
	// says so.
	preview := callOK[WriteOut](bob, "create_request", map[string]any{"title": "Sneaky"})
	res := bob.call("create_request", map[string]any{"title": "Sneaky", "confirmation_token": preview.ConfirmationToken})
	if !res.IsError || !strings.Contains(text(res), "forbidden") {
		t.Errorf("bob's create_request: %s", text(res))
	}
}

// TestTokenOutlivesARestart: with the secret kept on disk, a token from
// one dealctl mcp confirms in the next (an MCP client restarting it, or
// the Inspector's CLI starting one per call); without, it does not.
func TestTokenOutlivesARestart(t *testing.T) {
	a := startAPI(t)
	dir := t.TempDir()
	secret := func() []byte {
		b, err := TokenSecret(dir)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	args := map[string]any{"request": "1.2", "status": "complete"}
	first := callOK[WriteOut](a.session(t, aliceKey, sessionOptions{allowWrites: true, secret: secret()}), "move_status", args)
	args["confirmation_token"] = first.ConfirmationToken
	if res := a.session(t, aliceKey, sessionOptions{allowWrites: true}).call("move_status", args); !res.IsError {
		t.Errorf("a process with another secret took the token: %s", text(res))
	}
	done := callOK[WriteOut](a.session(t, aliceKey, sessionOptions{allowWrites: true, secret: secret()}), "move_status", args)
	if done.Status != "written" || done.Request.Status != "complete" {
		t.Errorf("confirmed after a restart = %+v", done)
	}
	info, err := os.Stat(filepath.Join(dir, "mcp", "confirm.key"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the secret's file: %v, %v", info, err)
	}
}

// TestSetEnumsBlank: a value of spaces only is refused, as any value
// not among the allowed (it once took the first of no values).
func TestSetEnumsBlank(t *testing.T) {
	var k api.Optional[api.RequestKind]
	var p api.Optional[api.Priority]
	var c api.Optional[api.RequestCategory]
	if err := setEnums(" ", "", "", &k, &p, &c); err == nil || !strings.Contains(err.Error(), "kind") {
		t.Fatalf("kind of spaces: %v", err)
	}
	if err := setEnums("", " ", "", &k, &p, &c); err == nil || !strings.Contains(err.Error(), "choose from low, medium, high") {
		t.Fatalf("priority of spaces: %v", err)
	}
	if err := setEnums("Section", "HIGH", " legal ", &k, &p, &c); err != nil || k.Value != api.KindSection || p.Value != api.PriorityHigh || c.Value != api.CategoryLegal {
		t.Fatalf("set: %v %v %v %v", err, k, p, c)
	}
}
