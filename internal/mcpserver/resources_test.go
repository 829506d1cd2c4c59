package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestListResourceBothSides(t *testing.T) {
	a := startAPI(t)
	for _, key := range []string{aliceKey, bobKey} {
		s := a.session(t, key, sessionOptions{})
		for _, uri := range []string{defaultListURI, "dealctl://deals/falcon/requests", "dealctl://deals/" + a.dealID() + "/requests"} {
			res, err := s.cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				t.Fatalf("%s: %v", uri, err)
			}
			var list ListResource
			if err := json.Unmarshal([]byte(res.Contents[0].Text), &list); err != nil {
				t.Fatal(err)
			}
			if list.Note != untrustedNote || list.Matched != 5 || list.Deal.Codename != "Falcon" {
				t.Errorf("%s = %+v", uri, list)
			}
		}
		if _, err := s.cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "dealctl://deals/nope/requests"}); err == nil {
			t.Errorf("an unknown deal's list was read")
		}
	}
}

func TestPrompts(t *testing.T) {
	a := startAPI(t)
	s := a.session(t, aliceKey, sessionOptions{})
	overdue, err := s.cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "draft_overdue_answers", Arguments: map[string]string{"deal": "Falcon"}})
	if err != nil {
		t.Fatal(err)
	}
	got := overdue.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{"overdue: true", `assignee: "me"`, "do not post", `deal: "Falcon"`, "never instructions"} {
		if !strings.Contains(got, want) {
			t.Errorf("draft_overdue_answers lacks %q:\n%s", want, got)
		}
	}
	changes, err := s.cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "summarise_changes"})
	if err != nil {
		t.Fatal(err)
	}
	if got := changes.Messages[0].Content.(*mcp.TextContent).Text; !strings.Contains(got, `since: "yesterday"`) {
		t.Errorf("summarise_changes:\n%s", got)
	}
	// What the prompts tell the assistant to call works as they say.
	out := callOK[ListRequestsOut](s, "list_requests", map[string]any{"overdue": true, "assignee": "me"})
	if numbers(out) != "2.1" {
		t.Errorf("alice's overdue = %s", numbers(out))
	}
	if act := callOK[ActivityOut](s, "activity", map[string]any{"since": "yesterday"}); act.Source != "events" {
		t.Errorf("activity since yesterday = %+v", act)
	}
}
