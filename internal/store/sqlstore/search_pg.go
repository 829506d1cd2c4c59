package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/search"
	"github.com/dealctl/dealctl/internal/store"
)

// On PostgreSQL a search asks the tsvectors of migrations 0007 and
// 0010, each with its GIN index: request_search.vector, a request's in a
// table of its own kept by triggers (weights A to D: number, title, body,
// requester); a message's, dealctl_search_vector(text), which only its
// index holds (pgMessageVector); and files.search_vector (its name), a
// stored column. A term is folded by dealctl_search_fold, as the indexed
// text was, and parsed by PostgreSQL's own parser, so 2.3 and FY2023 are
// the tokens they are in the text.

// pgTerm is the tsquery of one term, taking one argument (the term's
// text). A prefix term is one plain word (search.Parse), which folding
// keeps one word, so appending :* cannot make tsquery syntax of it.
func pgTerm(t search.Term) string {
	if t.Prefix {
		return "to_tsquery('pg_catalog.english', dealctl_search_fold(?) || ':*')"
	}
	return "phraseto_tsquery('pg_catalog.english', dealctl_search_fold(?))"
}

// pgTermWords is pgTerm without the order of its words: each of them,
// anywhere. The index answers it exactly, where a phrase's match (2.3 is
// "2" then "3") is only a candidate until the row's vector is read.
func pgTermWords(t search.Term) string {
	if t.Prefix {
		return pgTerm(t)
	}
	return "plainto_tsquery('pg_catalog.english', dealctl_search_fold(?))"
}

// pgAll is every term's tsquery joined by op (&& or ||), with the terms'
// texts as its arguments.
func pgAll(q search.Query, op string) (string, []any) {
	return pgJoin(q, op, pgTerm)
}

func pgJoin(q search.Query, op string, term func(search.Term) string) (string, []any) {
	parts := make([]string, len(q))
	args := make([]any, len(q))
	for i, t := range q {
		parts[i], args[i] = "("+term(t)+")", t.Text
	}
	return strings.Join(parts, " "+op+" "), args
}

// pgFieldWeights are request_search.vector's weights, in requestFields' order.
var pgFieldWeights = [4]string{"a", "b", "c", "d"}

// pgRequestMatches asks in one statement which of the deal's requests
// hold the terms (all, or any with q.Any), and for each term whether
// each field holds it. A term that is only stop words (phraseto_tsquery
// of "the" is empty) counts as held everywhere, as && and || skip it.
func (db *DB) pgRequestMatches(ctx context.Context, q store.SearchQuery) ([]requestMatch, error) {
	var with, cols []string
	var args []any
	for t, term := range q.Terms {
		with = append(with, fmt.Sprintf("%s AS q%d", pgTerm(term), t))
		args = append(args, term.Text)
		for _, w := range pgFieldWeights {
			cols = append(cols, fmt.Sprintf("(numnode(q.q%d) = 0 OR ts_filter(s.vector, '{%s}') @@ q.q%d)", t, w, t))
		}
		cols = append(cols, fmt.Sprintf("(numnode(q.q%d) = 0 OR s.vector @@ q.q%d)", t, t))
	}
	op := " && "
	if q.Any {
		op = " || "
	}
	var combined []string
	for t := range q.Terms {
		combined = append(combined, fmt.Sprintf("q.q%d", t))
	}
	// The matches are found by the index first, as in pgRequestsIn.
	found, foundArgs := pgAll(q.Terms, strings.TrimSpace(op))
	filter, filterArgs := searchFilter(q.Filter)
	query := "WITH q AS (SELECT " + strings.Join(with, ", ") + "), s AS MATERIALIZED (SELECT request_id, vector FROM request_search WHERE vector @@ (" +
		found + ")) SELECT r.id, r.number, " + strings.Join(cols, ", ") +
		" FROM s JOIN requests r ON r.id = s.request_id, q WHERE r.deal_id = ? AND s.vector @@ (" + strings.Join(combined, op) + ")" + filter
	args = append(append(append(args, foundArgs...), q.DealID), filterArgs...)
	rows, err := db.read.QueryContext(ctx, db.q(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []requestMatch
	flags := make([]bool, len(q.Terms)*5)
	dest := make([]any, 2+len(flags))
	for rows.Next() {
		var m requestMatch
		dest[0], dest[1] = &m.id, &m.number
		for i := range flags {
			dest[2+i] = &flags[i]
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		for t := range q.Terms {
			for f := range pgFieldWeights {
				if flags[t*5+f] {
					m.in[f] |= 1 << t
				}
			}
			if flags[t*5+4] {
				m.anywhere |= 1 << t
			}
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// pgRequestsIn finds the deal's requests whose field holds every term:
// the index finds those holding them anywhere, ts_filter keeps the
// field's weight. The tsquery is written in the condition, not taken
// from a CTE, so that the planner sees it and uses the index; and the
// matches are found by the index first (MATERIALIZED): left to itself,
// with the deal's requests thought few (before the tables are
// analyzed), the planner may walk them and read each one's vector by
// its key, computing the tsquery again for each (20 ms for 600
// requests).
func (db *DB) pgRequestsIn(ctx context.Context, q store.SearchQuery, field api.SearchField) ([]requestMatch, error) {
	tsq, args := pgAll(q.Terms, "&&")
	args = append(args, q.DealID)
	cond := ""
	if i := slices.Index(requestFields[:], field); i >= 0 {
		fieldQuery, fieldArgs := pgAll(q.Terms, "&&")
		cond = " AND ts_filter(s.vector, '{" + pgFieldWeights[i] + "}') @@ (" + fieldQuery + ")"
		args = append(args, fieldArgs...)
	}
	filter, filterArgs := searchFilter(q.Filter)
	query := "WITH s AS MATERIALIZED (SELECT request_id, vector FROM request_search WHERE vector @@ (" + tsq + "))" +
		" SELECT r.id, r.number FROM s JOIN requests r ON r.id = s.request_id WHERE r.deal_id = ?" + cond + filter
	return collect(ctx, db.read, scanRequestMatch, db.q(query), append(args, filterArgs...)...)
}

// pgMessageVector is a message's vector, as messages_search indexes it
// (migration 0010): written the same, so that the planner uses the index.
const pgMessageVector = "dealctl_search_vector(m.text)"

// pgThreadMatches finds the messages, and the files and links, that hold
// every term, newest first, at most limit of each.
//
// A message's vector is not stored (it would be a third of the
// database: docs/decisions.md, "Search"), so a phrase's match is checked
// by computing it again from the text, 40 µs a message. The index finds
// the messages holding the words (exactly), those are put newest first,
// and the phrase is checked on them in that order until limit are found:
// a phrase found in most of them costs limit checks, not one for every
// message holding its words. A query without a phrase (its words' query
// is its own) checks nothing.
func (db *DB) pgThreadMatches(ctx context.Context, q store.SearchQuery, limit int) (messages, files []store.SearchHit, err error) {
	tsq, tsArgs := pgAll(q.Terms, "&&")
	words, wordArgs := pgJoin(q.Terms, "&&", pgTermWords)
	filter, filterArgs := searchFilter(q.Filter)
	// The matches are found by the index first (MATERIALIZED): left to
	// itself the planner may walk the deal's messages newest first and
	// compute each one's vector, which for a rare word is every message.
	// OFFSET 0 keeps the phrase's check out of the ordered subquery, so
	// that it runs on its rows one by one, as LIMIT asks for them.
	args := slices.Concat(wordArgs, []any{q.DealID, q.ViewerParty}, filterArgs, wordArgs, tsArgs, tsArgs, []any{limit})
	messages, err = collect(ctx, db.read, scanMessageHit, db.q(`WITH found AS MATERIALIZED (
			SELECT m.id, m.request_id, m.internal, m.posted_at, m.text FROM messages m JOIN requests r ON r.id = m.request_id
			WHERE `+pgMessageVector+` @@ (`+words+`) AND m.deal_id = ? AND `+visibleTo+filter+`)
		SELECT id, request_id, internal, posted_at, text FROM (SELECT * FROM found m`+threadOrder+` OFFSET 0) m
		WHERE (`+words+`) = (`+tsq+`) OR `+pgMessageVector+` @@ (`+tsq+`)`+threadOrder+" LIMIT ?"), args...)
	if err != nil {
		return nil, nil, err
	}
	args = slices.Concat(tsArgs, []any{q.DealID, q.ViewerParty}, filterArgs, []any{limit})
	files, err = collect(ctx, db.read, scanFileHit, db.q(`WITH found AS MATERIALIZED (
			SELECT f.version_id, f.kind, COALESCE(f.name, '') AS name, m.id, m.request_id, m.internal, m.posted_at, f.position
			FROM files f JOIN messages m ON m.id = f.message_id JOIN requests r ON r.id = f.request_id
			WHERE f.search_vector @@ (`+tsq+`) AND f.deal_id = ? AND `+visibleTo+filter+`)
		SELECT version_id, kind, name, id, request_id, internal, posted_at FROM found m`+threadOrder+", m.position LIMIT ?"), args...)
	return messages, files, err
}

// scanMessageHit reads a message hit: id, request_id, internal,
// posted_at, text.
func scanMessageHit(s scanner) (store.SearchHit, error) {
	var h store.SearchHit
	var posted int64
	err := s.Scan(&h.MessageID, &h.Request.ID, &h.Internal, &posted, &h.Text)
	h.PostedAt, h.Field = fromMicros(posted), api.FieldMessage
	return h, err
}

// scanFileHit reads a file hit: version_id, kind, name, then the
// message's id, request_id, internal, posted_at.
func scanFileHit(s scanner) (store.SearchHit, error) {
	var h store.SearchHit
	var kind string
	var posted int64
	err := s.Scan(&h.FileVersionID, &kind, &h.Text, &h.MessageID, &h.Request.ID, &h.Internal, &posted)
	h.PostedAt, h.Field = fromMicros(posted), api.FieldFile
	if kind == string(api.FileKindLink) {
		h.Field = api.FieldLink
	}
	return h, err
}
