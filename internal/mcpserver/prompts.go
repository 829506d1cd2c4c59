package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The prompts: the two jobs a deal team most often hands an assistant.
// They only say how to use the tools; the deal's text comes through the
// tools, marked as data.

var dealArgument = &mcp.PromptArgument{Name: "deal", Description: "the deal's codename or id; empty for the default deal"}

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&mcp.Prompt{Name: "draft_overdue_answers", Title: "Draft answers for my overdue requests",
		Description: "Drafts an answer to each overdue request assigned to you, for you to review; nothing is posted.",
		Arguments:   []*mcp.PromptArgument{dealArgument}}, s.draftOverdue)
	s.mcp.AddPrompt(&mcp.Prompt{Name: "summarise_changes", Title: "Summarise what changed since yesterday",
		Description: "Summarises what happened on the deal since a time (default: yesterday), by request and by side.",
		Arguments: []*mcp.PromptArgument{dealArgument,
			{Name: "since", Description: "from when: yesterday (default), today, 24h, 7d, a day or a time"}}}, s.summariseChanges)
}

func dealPhrase(args map[string]string) string {
	if d := args["deal"]; d != "" {
		return fmt.Sprintf("the deal %q (pass deal: %q to each tool)", d, d)
	}
	return "the default deal"
}

func userPrompt(description, text string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{Description: description,
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}
}

func (s *Server) draftOverdue(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return userPrompt("Draft answers for my overdue requests", fmt.Sprintf(
		"On %s, find the requests assigned to me that are overdue: call list_requests with overdue: true and assignee: \"me\". "+
			"For each, call get_request to read the request and its conversation, then draft an answer that responds to what "+
			"was asked, says what is attached or still to come, and whether it is partial. Show me the drafts, one per "+
			"request, with its number and title; do not post anything. If I approve a draft, post it with the answer tool, "+
			"which asks me to confirm. %s", dealPhrase(req.Params.Arguments), untrustedNote)), nil
}

func (s *Server) summariseChanges(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	since := req.Params.Arguments["since"]
	if since == "" {
		since = "yesterday"
	}
	return userPrompt("Summarise what changed since "+since, fmt.Sprintf(
		"Summarise what changed on %s since %s: call activity with since: %q (and progress for the counts now). "+
			"Group the changes by request: new requests, answers and questions from each side, status moves, assignments "+
			"and due dates; then say what now waits on my side, and what is overdue. Name who did what and from which "+
			"side. %s", dealPhrase(req.Params.Arguments), since, since, untrustedNote)), nil
}
