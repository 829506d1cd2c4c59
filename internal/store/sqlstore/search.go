package sqlstore

import (
	"context"
	"math/bits"
	"slices"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// Search finds q's terms in a deal (store.Searcher). The databases'
// indexes (migration 0007: FTS5 on SQLite, tsvector on PostgreSQL) say
// what matches and where; the order is decided here, the same on both,
// from nothing but the hit itself and what the viewer may see:
//
//   - requests before their threads; among requests, the number or the
//     title holding every term, then the body, then the requester, then
//     the terms spread over the fields, each group in the deal's number
//     order (a group is read only while the limit is not reached); with
//     Any, those holding the most terms first;
//   - thread hits (messages, links, files), newest first.
//
// No relevance score from the index's statistics (bm25, corpus counts)
// is used: those count every row, internal notes and other deals
// included, so they would let the counterparty's order move with text it
// may not see.
func (db *DB) Search(ctx context.Context, q store.SearchQuery) (store.SearchResult, error) {
	var res store.SearchResult
	if len(q.Terms) == 0 || q.Limit <= 0 {
		return res, nil
	}
	var hits []store.SearchHit
	if q.Requests {
		found, err := db.searchRequests(ctx, q)
		if err != nil {
			return res, err
		}
		hits = found
	}
	if q.Messages && len(hits) <= q.Limit {
		found, err := db.searchThreads(ctx, q, q.Limit+1-len(hits))
		if err != nil {
			return res, err
		}
		hits = append(hits, found...)
	}
	if len(hits) > q.Limit {
		hits, res.More = hits[:q.Limit], true
	}
	if err := db.fillRequests(ctx, q.DealID, hits); err != nil {
		return res, err
	}
	res.Hits = hits
	return res, nil
}

// requestMatch is one request the index found, with which terms it
// holds in which field: bit t of in[f] is term t in field f (number,
// title, body, requester), of anywhere is term t in the fields together.
type requestMatch struct {
	id, number string
	in         [4]uint64
	anywhere   uint64
}

// requestFields are the fields of a request the index holds, in the
// order of requestMatch.in, which is also their order of preference.
var requestFields = [4]api.SearchField{api.FieldNumber, api.FieldTitle, api.FieldBody, api.FieldRequester}

// fieldTier ranks a request hit by where its terms are.
var fieldTier = map[api.SearchField]int{api.FieldNumber: 0, api.FieldTitle: 0, api.FieldBody: 1, api.FieldRequester: 2, api.FieldRequest: 3}

// field is where m's terms are: the first field holding all of them.
func (m requestMatch) field() api.SearchField {
	for i, f := range requestFields {
		if m.in[i]&m.anywhere == m.anywhere {
			return f
		}
	}
	return api.FieldRequest
}

// searchRequests ranks the deal's requests matching q, keeping the
// first q.Limit+1.
func (db *DB) searchRequests(ctx context.Context, q store.SearchQuery) ([]store.SearchHit, error) {
	if q.Any {
		return db.searchRequestsAny(ctx, q)
	}
	var out []store.SearchHit
	seen := map[string]bool{}
	for _, group := range requestTierGroups {
		var found []requestMatch
		var fields []api.SearchField
		for _, field := range group {
			ms, err := db.requestsIn(ctx, q, field)
			if err != nil {
				return nil, err
			}
			for _, m := range ms {
				if !seen[m.id] {
					seen[m.id] = true
					found, fields = append(found, m), append(fields, field)
				}
			}
		}
		order := make([]int, len(found))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return compareMatches(found[a], found[b]) })
		for _, i := range order {
			out = append(out, store.SearchHit{Request: store.Request{ID: found[i].id}, Field: fields[i], Matched: len(q.Terms)})
		}
		// The groups come best first: once the limit is passed, the
		// later ones cannot enter it, and are never read.
		if len(out) > q.Limit {
			return out[:q.Limit+1], nil
		}
	}
	return out, nil
}

// requestTierGroups are the fields a request's terms may all be in, in
// the order hits rank: number and title together (in number order), then
// body, requester, and the fields together (api.FieldRequest).
var requestTierGroups = [][]api.SearchField{
	{api.FieldNumber, api.FieldTitle}, {api.FieldBody}, {api.FieldRequester}, {api.FieldRequest},
}

// requestsIn finds the deal's requests whose field holds every term
// (api.FieldRequest: the fields together).
func (db *DB) requestsIn(ctx context.Context, q store.SearchQuery, field api.SearchField) ([]requestMatch, error) {
	if db.dialect == Postgres {
		return db.pgRequestsIn(ctx, q, field)
	}
	return db.liteRequestsIn(ctx, q, field)
}

func compareMatches(a, b requestMatch) int {
	if c := domain.CompareNumbers(a.number, b.number); c != 0 {
		return c
	}
	return strings.Compare(a.id, b.id)
}

// searchRequestsAny ranks the requests holding any term, those holding
// the most first, then by where they are and number: every candidate is
// read with which terms each field holds.
func (db *DB) searchRequestsAny(ctx context.Context, q store.SearchQuery) ([]store.SearchHit, error) {
	var matches []requestMatch
	var err error
	if db.dialect == Postgres {
		matches, err = db.pgRequestMatches(ctx, q)
	} else {
		matches, err = db.liteRequestMatches(ctx, q)
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(matches, func(a, b requestMatch) int {
		if c := bits.OnesCount64(b.anywhere) - bits.OnesCount64(a.anywhere); c != 0 {
			return c
		}
		if c := fieldTier[a.field()] - fieldTier[b.field()]; c != 0 {
			return c
		}
		return compareMatches(a, b)
	})
	matches = matches[:min(len(matches), q.Limit+1)]
	out := make([]store.SearchHit, len(matches))
	for i, m := range matches {
		out[i] = store.SearchHit{Request: store.Request{ID: m.id}, Field: m.field(), Matched: bits.OnesCount64(m.anywhere)}
	}
	return out, nil
}

// searchThreads finds the messages, links and files matching q (every
// term in one of them) that the viewer may see, newest first, at most
// limit.
func (db *DB) searchThreads(ctx context.Context, q store.SearchQuery, limit int) ([]store.SearchHit, error) {
	var messages, files []store.SearchHit
	var err error
	if db.dialect == Postgres {
		messages, files, err = db.pgThreadMatches(ctx, q, limit)
	} else {
		messages, files, err = db.liteThreadMatches(ctx, q, limit)
	}
	if err != nil {
		return nil, err
	}
	hits := append(messages, files...)
	slices.SortStableFunc(hits, func(a, b store.SearchHit) int {
		if c := b.PostedAt.Compare(a.PostedAt); c != 0 {
			return c
		}
		if c := strings.Compare(b.MessageID, a.MessageID); c != 0 {
			return c
		}
		return strings.Compare(a.FileVersionID, b.FileVersionID) // the message before its files
	})
	for i := range hits {
		hits[i].Matched = len(q.Terms)
	}
	return hits[:min(len(hits), limit)], nil
}

// threadOrder is the SQL order of thread hits, newest first.
const threadOrder = " ORDER BY m.posted_at DESC, m.id DESC"

// fillRequests reads the requests the hits name.
func (db *DB) fillRequests(ctx context.Context, dealID string, hits []store.SearchHit) error {
	if len(hits) == 0 {
		return nil
	}
	ids := make([]any, 0, len(hits)+1)
	ids = append(ids, dealID)
	seen := map[string]bool{}
	for _, h := range hits {
		if !seen[h.Request.ID] {
			seen[h.Request.ID] = true
			ids = append(ids, h.Request.ID)
		}
	}
	// By id alone: with the deal in the condition too, SQLite may walk
	// the deal's rows by its index instead of looking the ids up.
	query := "SELECT " + requestCols + " FROM requests WHERE id IN (" + placeholders(len(ids)-1) + ")"
	rows, err := collect(ctx, db.read, scanRequest, db.q(query), ids[1:]...)
	if err != nil {
		return err
	}
	byID := make(map[string]store.Request, len(rows))
	for _, r := range rows {
		if r.DealID == dealID {
			byID[r.ID] = r
		}
	}
	for i := range hits {
		hits[i].Request = byID[hits[i].Request.ID]
	}
	return nil
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// searchFilter is q.Filter as conditions on requests r, with their
// arguments; "" when it filters nothing. A filter keeps requests only,
// as the list's filter does (sections are not filtered rows).
func searchFilter(f domain.RequestFilter) (string, []any) {
	var conds []string
	var args []any
	in := func(column string, values []string) {
		if len(values) == 0 {
			return
		}
		conds = append(conds, column+" IN ("+placeholders(len(values))+")")
		for _, v := range values {
			args = append(args, v)
		}
	}
	in("r.status", names(f.Statuses))
	in("r.priority", names(f.Priorities))
	in("r.category", names(f.Categories))
	if len(f.Assignees) > 0 {
		var ids []string
		none := false
		for _, a := range f.Assignees {
			if a == string(api.AssigneeNone) {
				none = true
			} else {
				ids = append(ids, a)
			}
		}
		var either []string
		if none {
			either = append(either, "r.assignee_id IS NULL")
		}
		if len(ids) > 0 {
			either = append(either, "r.assignee_id IN ("+placeholders(len(ids))+")")
			for _, id := range ids {
				args = append(args, id)
			}
		}
		conds = append(conds, "("+strings.Join(either, " OR ")+")")
	}
	if f.UpdatedSince != nil {
		conds = append(conds, "r.updated_at >= ?")
		args = append(args, micros(*f.UpdatedSince))
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " AND r.kind = '" + string(api.KindRequest) + "' AND " + strings.Join(conds, " AND "), args
}

func names[T ~string](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}
