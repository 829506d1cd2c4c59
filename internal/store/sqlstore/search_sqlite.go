package sqlstore

import (
	"context"
	"slices"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/search"
	"github.com/dealctl/dealctl/internal/store"
)

// On SQLite a search asks the FTS5 tables of migration 0007 (requests_search,
// messages_search, files_search), whose rowids are their rows'.

// ftsTerm is a term in FTS5's query language: a string in double quotes
// is a phrase of the words the tokenizer finds in it (so 2.3 is "2" then
// "3", found as typed), and a star after it a prefix. Nothing the user
// typed is read as FTS5 syntax.
func ftsTerm(t search.Term) string {
	quoted := `"` + strings.ReplaceAll(t.Text, `"`, `""`) + `"`
	if t.Prefix {
		return quoted + " *"
	}
	return quoted
}

// ftsAll is every term of q, all required.
func ftsAll(q search.Query) string {
	parts := make([]string, len(q))
	for i, t := range q {
		parts[i] = ftsTerm(t)
	}
	return strings.Join(parts, " AND ")
}

// liteFieldColumns are requests_search's columns, in requestFields' order.
var liteFieldColumns = [4]string{"number", "title", "body", "requester"}

// The index is asked first, in a subquery (its rowids, materialised
// once), and the rows are read by rowid: joined the other way, SQLite may
// walk the deal's rows and ask the index once for each.
const (
	liteRequestsMatching = "SELECT r.id, r.number FROM requests r WHERE r.rowid IN (SELECT rowid FROM requests_search WHERE requests_search MATCH ?) AND r.deal_id = ?"
	liteMessagesMatching = "m.rowid IN (SELECT rowid FROM messages_search WHERE messages_search MATCH ?)"
	liteFilesMatching    = "f.rowid IN (SELECT rowid FROM files_search WHERE files_search MATCH ?)"
)

// liteRequestsIn finds the deal's requests whose field holds every term.
func (db *DB) liteRequestsIn(ctx context.Context, q store.SearchQuery, field api.SearchField) ([]requestMatch, error) {
	match := ftsAll(q.Terms)
	if i := slices.Index(requestFields[:], field); i >= 0 {
		match = "{" + liteFieldColumns[i] + "} : (" + match + ")"
	}
	filter, filterArgs := searchFilter(q.Filter)
	return collect(ctx, db.read, scanRequestMatch, liteRequestsMatching+filter, append([]any{match, q.DealID}, filterArgs...)...)
}

func scanRequestMatch(s scanner) (requestMatch, error) {
	var m requestMatch
	return m, s.Scan(&m.id, &m.number)
}

// liteRequestMatches asks, for each term and each field, which of the
// deal's requests hold it: FTS5 answers a column filter from the same
// index.
func (db *DB) liteRequestMatches(ctx context.Context, q store.SearchQuery) ([]requestMatch, error) {
	filter, filterArgs := searchFilter(q.Filter)
	query := liteRequestsMatching + filter
	byID := map[string]*requestMatch{}
	var order []string
	for t, term := range q.Terms {
		for f, column := range liteFieldColumns {
			args := append([]any{"{" + column + "} : (" + ftsTerm(term) + ")", q.DealID}, filterArgs...)
			rows, err := db.read.QueryContext(ctx, query, args...)
			if err != nil {
				return nil, err
			}
			for rows.Next() {
				var id, number string
				if err := rows.Scan(&id, &number); err != nil {
					rows.Close()
					return nil, err
				}
				m := byID[id]
				if m == nil {
					m = &requestMatch{id: id, number: number}
					byID[id] = m
					order = append(order, id)
				}
				m.in[f] |= 1 << t
				m.anywhere |= 1 << t
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, err
			}
		}
	}
	out := make([]requestMatch, len(order))
	for i, id := range order {
		out[i] = *byID[id]
	}
	return out, nil
}

// liteThreadMatches finds the messages, and the files and links, that
// hold every term, newest first, at most limit of each.
func (db *DB) liteThreadMatches(ctx context.Context, q store.SearchQuery, limit int) (messages, files []store.SearchHit, err error) {
	filter, filterArgs := searchFilter(q.Filter)
	match := ftsAll(q.Terms)
	args := append([]any{match, q.DealID, q.ViewerParty}, filterArgs...)
	args = append(args, limit)
	messages, err = collect(ctx, db.read, scanMessageHit, `SELECT m.id, m.request_id, m.internal, m.posted_at, m.text
		FROM messages m JOIN requests r ON r.id = m.request_id
		WHERE `+liteMessagesMatching+` AND m.deal_id = ? AND `+visibleTo+filter+threadOrder+" LIMIT ?", args...)
	if err != nil {
		return nil, nil, err
	}
	files, err = collect(ctx, db.read, scanFileHit, `SELECT f.version_id, f.kind, COALESCE(f.name, ''), m.id, m.request_id, m.internal, m.posted_at
		FROM files f JOIN messages m ON m.id = f.message_id JOIN requests r ON r.id = f.request_id
		WHERE `+liteFilesMatching+` AND f.deal_id = ? AND `+visibleTo+filter+threadOrder+", f.position LIMIT ?", args...)
	return messages, files, err
}
