package server

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/search"
	"github.com/dealctl/dealctl/internal/store"
)

// searchCall is a parsed search: the store's query but for the caller,
// and the canonical form that names it in an ETag.
type searchCall struct {
	query     store.SearchQuery
	canonical string
}

// parseSearch reads q, in, match, limit and the list filters. Every
// problem is a field of one 422 validation_failed, as a list filter's is.
func parseSearch(values url.Values) (searchCall, error) {
	var sc searchCall
	var errs fieldErrors
	q := &sc.query
	q.Limit = api.SearchDefaultLimit
	raw := strings.TrimSpace(values.Get("q"))
	terms, err := search.Parse(raw)
	switch {
	case raw == "":
		errs.add("q", api.FieldRequired, nil)
	case errors.Is(err, search.ErrQueryTooLong):
		errs.add("q", api.FieldTooLong, map[string]any{"max": search.MaxQueryLen})
	case errors.Is(err, search.ErrQueryTooMany):
		errs.add("q", api.FieldTooMany, map[string]any{"max": search.MaxTerms})
	case err != nil:
		errs.add("q", api.FieldInvalid, map[string]any{"reason": api.ReasonNoWords})
	}
	q.Terms = terms
	in := filterValues(values, "in")
	for _, v := range in {
		switch api.SearchIn(v) {
		case api.SearchInRequests:
			q.Requests = true
		case api.SearchInMessages:
			q.Messages = true
		default:
			errs.add("in", api.FieldUnknownValue, map[string]any{"value": v, "allowed": []api.SearchIn{api.SearchInRequests, api.SearchInMessages}})
		}
	}
	switch match := values.Get("match"); match {
	case "", api.SearchMatchAll:
	case api.SearchMatchAny:
		// Any ranks requests by how many words they hold; a thread hit
		// holds them all, so any looks in requests only.
		q.Any = true
		if q.Messages {
			errs.add("match", api.FieldInvalid, map[string]any{"reason": api.ReasonAnyInRequestsOnly})
		}
		if len(in) == 0 {
			q.Requests = true
		}
	default:
		errs.add("match", api.FieldUnknownValue, map[string]any{"value": match, "allowed": []string{api.SearchMatchAll, api.SearchMatchAny}})
	}
	if !q.Requests && !q.Messages {
		q.Requests, q.Messages = true, true
	}
	if v := values.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > api.SearchMaxLimit {
			errs.add("limit", api.FieldInvalid, map[string]any{"min": 1, "max": api.SearchMaxLimit})
		}
		q.Limit = n
	}
	filter, err := parseListFilter(values)
	var filterErr *api.ErrorResponse
	if errors.As(err, &filterErr) {
		errs = append(errs, filterErr.Fields...)
	}
	if err := errs.err(); err != nil {
		return sc, err
	}
	q.Filter = filter.match
	sc.canonical = strings.Join([]string{terms.String(), strconv.FormatBool(q.Requests), strconv.FormatBool(q.Messages),
		strconv.FormatBool(q.Any), strconv.Itoa(q.Limit), filter.key()}, "\x00")
	return sc, nil
}

// searchDeal answers GET /deals/{deal_id}/search (extension "search"):
// the hits of what the caller may see, best first. The answer depends on
// the deal's version as the caller's view class sees it (versionFor: the
// counterparty's moves only with what both sides see) and on the query,
// so its ETag is made of those, as a list's is, and a 304 costs the
// deal's row.
func (s *Server) searchDeal(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	dc, err := s.reachDeal(ctx, c, r.PathValue("deal_id"))
	if err != nil {
		return err
	}
	sc, err := parseSearch(r.URL.Query())
	if err != nil {
		return err
	}
	if notModified(w, r, etagOf("search", dc.deal.ID, versionFor(dc), viewClass(dc), sc.canonical)) {
		return nil
	}
	sc.query.DealID, sc.query.ViewerParty = dc.deal.ID, dc.seat.PartyID
	res, err := s.store.Search(ctx, sc.query)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, searchResults(res, sc.query.Terms))
	return nil
}

// searchResults is what the API shows of a store's hits.
func searchResults(res store.SearchResult, terms search.Query) api.SearchResults {
	out := api.SearchResults{Hits: make([]api.SearchHit, 0, len(res.Hits)), More: res.More}
	for _, h := range res.Hits {
		hit := api.SearchHit{RequestID: h.Request.ID, Number: h.Request.Number, Title: h.Request.Title, Kind: h.Request.Kind,
			Field: h.Field, Matched: h.Matched, Internal: h.Internal}
		if h.MessageID != "" {
			hit.MessageID, hit.PostedAt = &h.MessageID, &h.PostedAt
		}
		if h.FileVersionID != "" {
			hit.FileVersionID = &h.FileVersionID
		}
		hit.Snippet = search.Snippet(hitText(h, terms), terms, search.SnippetWidth)
		out.Hits = append(out.Hits, hit)
	}
	return out
}

// hitText is the text a hit's snippet is cut from: the field that
// matched; for words spread over a request's fields, the first of title
// and body in which a word is marked.
func hitText(h store.SearchHit, terms search.Query) string {
	r := h.Request
	switch h.Field {
	case api.FieldNumber:
		return r.Number
	case api.FieldTitle:
		return r.Title
	case api.FieldBody:
		return r.Body
	case api.FieldRequester:
		if r.Requester != nil {
			return *r.Requester
		}
		return ""
	case api.FieldRequest:
		texts := []string{r.Title, r.Body}
		if i := slices.IndexFunc(texts, func(t string) bool { return search.Marked(search.Snippet(t, terms, search.SnippetWidth)) }); i >= 0 {
			return texts[i]
		}
		return r.Title
	}
	return h.Text
}
