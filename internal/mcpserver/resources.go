package mcpserver

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The resources: the deal's list, for a client that attaches context
// rather than calling tools.
const (
	defaultListURI = "dealctl://requests"
	listURIPrefix  = "dealctl://deals/"
	listURISuffix  = "/requests"
)

// ListResource is a list resource's content.
type ListResource struct {
	Note string `json:"note"`
	ListRequestsOut
}

func (s *Server) addResources() {
	desc := "The deal's whole request list, in list order, as list_requests returns it (JSON). " + untrustedNote
	s.mcp.AddResource(&mcp.Resource{URI: defaultListURI, Name: "requests", Title: "The deal's request list",
		Description: desc + " This is the default deal's (whoami).", MIMEType: "application/json"}, s.readList)
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: listURIPrefix + "{deal}" + listURISuffix, Name: "deal-requests",
		Title: "A deal's request list", Description: desc + " {deal} is the deal's codename or id.", MIMEType: "application/json"}, s.readList)
}

func (s *Server) readList(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	var deal string
	if uri != defaultListURI {
		d, prefixed := strings.CutPrefix(uri, listURIPrefix)
		d, suffixed := strings.CutSuffix(d, listURISuffix)
		if !prefixed || !suffixed || d == "" {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		var err error
		if deal, err = url.PathUnescape(d); err != nil {
			return nil, mcp.ResourceNotFoundError(uri)
		}
	}
	sc, err := s.openDeal(ctx, deal)
	if err != nil {
		return nil, toolError(err)
	}
	rows, err := sc.Rows(ctx)
	if err != nil {
		return nil, toolError(err)
	}
	data, err := json.Marshal(ListResource{Note: untrustedNote, ListRequestsOut: s.rowsOut(ctx, sc, rows, maxListRows)})
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(data)}}}, nil
}
