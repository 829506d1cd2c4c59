package sqlstore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dealctl/dealctl/internal/store"
)

// visibleTo is the condition on messages m that a viewer on party ? may
// see: shared ones, and internal ones of their own side (domain.MessageVisibleTo in SQL).
const visibleTo = "(m.internal = FALSE OR m.party_id = ?)"

// LatestAnswers picks the newest visible response per request in one
// query, cutting its text in SQL so that a list read never drags whole
// conversations out of the database.
func (db *DB) LatestAnswers(ctx context.Context, dealID, requestID, viewerParty string, previewLen int) ([]store.Message, error) {
	scope, args := requestScope(requestID)
	return db.latestAnswers(ctx, dealID, viewerParty, previewLen, scope, args...)
}

// requestScope is the condition on m.request_id (f.request_id for files,
// with alias "f") that limits a read to one request; none for "".
func requestScope(requestID string) (string, []any) {
	if requestID == "" {
		return "", nil
	}
	return " AND %s.request_id = ?", []any{requestID}
}

// scoped names alias in scope's condition.
func scoped(scope, alias string) string {
	if scope == "" {
		return ""
	}
	return fmt.Sprintf(scope, alias)
}

// latestAnswers is LatestAnswers limited by scope, a condition on
// m.request_id with its arguments.
func (db *DB) latestAnswers(ctx context.Context, dealID, viewerParty string, previewLen int, scope string, scopeArgs ...any) ([]store.Message, error) {
	cut := strconv.Itoa(previewLen + 1)
	query := `SELECT id, deal_id, request_id, party_id, author_id, kind, partial, internal, source, text, format, posted_at, on_behalf FROM (
		SELECT m.id, m.deal_id, m.request_id, m.party_id, m.author_id, m.kind, m.partial, m.internal, m.source,
			SUBSTR(m.text, 1, ` + cut + `) AS text, m.format, m.posted_at, m.on_behalf,
			ROW_NUMBER() OVER (PARTITION BY m.request_id ORDER BY m.posted_at DESC, m.id DESC) AS rn
		FROM messages m WHERE m.deal_id = ? AND m.kind = 'response' AND ` + visibleTo
	args := append([]any{dealID, viewerParty}, scopeArgs...)
	query += scoped(scope, "m") + ") latest WHERE rn = 1"
	return collect(ctx, db.reads, scanMessage, db.q(query), args...)
}

// VisibleFiles lists files on messages the viewer may see.
func (db *DB) VisibleFiles(ctx context.Context, dealID, requestID, viewerParty string) ([]store.File, error) {
	scope, args := requestScope(requestID)
	return db.visibleFiles(ctx, dealID, viewerParty, scope, args...)
}

// visibleFiles is VisibleFiles limited by scope, a condition on
// f.request_id with its arguments.
func (db *DB) visibleFiles(ctx context.Context, dealID, viewerParty, scope string, scopeArgs ...any) ([]store.File, error) {
	query := `SELECT f.version_id, f.deal_id, f.request_id, f.message_id, f.position, f.kind, f.name, f.url, f.size, f.content_type, f.sha256, f.scanned, m.internal
		FROM files f JOIN messages m ON m.id = f.message_id WHERE f.deal_id = ? AND ` + visibleTo
	args := append([]any{dealID, viewerParty}, scopeArgs...)
	query += scoped(scope, "f") + " ORDER BY m.posted_at, m.id, f.position"
	return collect(ctx, db.reads, scanVisibleFile, db.q(query), args...)
}

// scanVisibleFile reads fileCols followed by the message's internal flag.
func scanVisibleFile(s scanner) (store.File, error) {
	var internal bool
	f, err := scanFileThen(s, &internal)
	f.Internal = internal
	return f, err
}
