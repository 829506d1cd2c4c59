package sqlstore

import (
	"context"
	"strconv"

	"github.com/dealctl/dealctl/internal/store"
)

// visibleTo is the condition on messages m that a viewer on party ? may
// see: shared ones, and internal ones of their own side (domain.MessageVisibleTo in SQL).
const visibleTo = "(m.internal = FALSE OR m.party_id = ?)"

// LatestAnswers picks the newest visible response per request in one
// query, cutting its text in SQL so that a list read never drags whole
// conversations out of the database. A requestID limits it to one
// request ("" for every request of the deal).
func (db *DB) LatestAnswers(ctx context.Context, dealID, requestID, viewerParty string, previewLen int) ([]store.Message, error) {
	cut := strconv.Itoa(previewLen + 1)
	query := `SELECT id, deal_id, request_id, party_id, author_id, kind, partial, internal, source, text, format, posted_at, on_behalf FROM (
		SELECT m.id, m.deal_id, m.request_id, m.party_id, m.author_id, m.kind, m.partial, m.internal, m.source,
			SUBSTR(m.text, 1, ` + cut + `) AS text, m.format, m.posted_at, m.on_behalf,
			ROW_NUMBER() OVER (PARTITION BY m.request_id ORDER BY m.posted_at DESC, m.id DESC) AS rn
		FROM messages m WHERE m.deal_id = ? AND m.kind = 'response' AND ` + visibleTo
	args := []any{dealID, viewerParty}
	if requestID != "" {
		query += " AND m.request_id = ?"
		args = append(args, requestID)
	}
	query += ") latest WHERE rn = 1"
	return collect(ctx, db.reads, scanMessage, db.q(query), args...)
}

// VisibleFiles lists files on messages the viewer may see, of one
// request (requestID) or of every request of the deal ("").
func (db *DB) VisibleFiles(ctx context.Context, dealID, requestID, viewerParty string) ([]store.File, error) {
	query := `SELECT f.version_id, f.deal_id, f.request_id, f.message_id, f.position, f.kind, f.name, f.url, f.size, f.content_type, f.sha256, f.scanned, m.internal
		FROM files f JOIN messages m ON m.id = f.message_id WHERE f.deal_id = ? AND ` + visibleTo
	args := []any{dealID, viewerParty}
	if requestID != "" {
		query += " AND f.request_id = ?"
		args = append(args, requestID)
	}
	query += " ORDER BY m.posted_at, m.id, f.position"
	return collect(ctx, db.reads, scanVisibleFile, db.q(query), args...)
}

// scanVisibleFile reads fileCols followed by the message's internal flag.
func scanVisibleFile(s scanner) (store.File, error) {
	var internal bool
	f, err := scanFileThen(s, &internal)
	f.Internal = internal
	return f, err
}
