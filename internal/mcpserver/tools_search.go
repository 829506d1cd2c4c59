package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dealctl/dealctl/internal/domain"
)

// SearchIn is search's input.
type SearchIn struct {
	DealArg
	Query string `json:"query" jsonschema:"the words to look for"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many rows (default 200, at most 1000)"`
}

// SearchOut is search's answer.
type SearchOut struct {
	ListRequestsOut
	Method string `json:"method" jsonschema:"how the search ran: client_match (the text of each row, as requests ls --search matches it)"`
}

func (s *Server) addSearchTool() {
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "search", Annotations: readOnly("Search requests"),
		Description: "Finds the deal's requests whose number, title, body or requester contain the query, in list order." + readNote}, s.search)
}

func (s *Server) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, SearchOut, error) {
	if strings.TrimSpace(in.Query) == "" {
		return nil, SearchOut{}, fmt.Errorf("query is empty: give the words to look for")
	}
	sc, err := s.openDeal(ctx, in.Deal)
	if err != nil {
		return nil, SearchOut{}, toolError(err)
	}
	rows, err := sc.Rows(ctx)
	if err != nil {
		return nil, SearchOut{}, toolError(err)
	}
	f := &rowFilter{search: domain.SearchQuery(in.Query), active: true}
	out := SearchOut{ListRequestsOut: s.rowsOut(ctx, sc, f.keep(rows), in.Limit), Method: "client_match"}
	return result(out), out, nil
}
