package sqlstore

import (
	"context"

	"github.com/dealctl/dealctl/internal/store"
)

// ListChanges reads what changed in a deal's list after version since:
// the rows a write stamped with a later list version (migration 0009),
// with the newest answer and the files viewerParty may see on each, and
// the rows deleted since. shared picks the counterparty's versions
// (shared_list_version, which an internal note never moves) over the
// owning side's. A row read here may be newer than the deal's row the
// caller read before: it then also has a later version, and is read
// again by the next call from the caller's version.
func (db *DB) ListChanges(ctx context.Context, dealID string, since int64, shared bool, viewerParty string, previewLen int) (store.ListChanges, error) {
	var out store.ListChanges
	var err error
	if since == 0 {
		// The whole list, rows stamped before migration 0009 included.
		if out.Requests, err = db.Requests(ctx, dealID); err != nil {
			return out, err
		}
		if out.Latest, err = db.LatestAnswers(ctx, dealID, "", viewerParty, previewLen); err != nil {
			return out, err
		}
		out.Files, err = db.VisibleFiles(ctx, dealID, "", viewerParty)
		return out, err
	}
	column := listVersionColumn(shared)
	// One statement reads the changed rows with their answers and files
	// (a handful of rows, each found by index), one the deleted ones: on
	// PostgreSQL each statement is a round trip.
	views, err := collect(ctx, db.reads, func(s scanner) (store.RequestView, error) {
		var v store.RequestView
		return v, scanRowView(s, &v)
	}, db.q("SELECT "+db.rowViewCols(previewLen)+" FROM requests r "+latestAnswerJoin+" WHERE r.deal_id = ? AND r."+column+" > ?"),
		viewerParty, viewerParty, dealID, since)
	if err != nil {
		return out, err
	}
	for _, v := range views {
		out.Requests = append(out.Requests, v.Request)
		if v.Latest != nil {
			out.Latest = append(out.Latest, *v.Latest)
		}
		out.Files = append(out.Files, v.Files...)
	}
	out.Removed, err = collect(ctx, db.reads, scanString, db.q("SELECT request_id FROM request_tombstones WHERE deal_id = ? AND "+column+" > ?"), dealID, since)
	return out, err
}

// ListChangedIDs reads the ids of the requests changed after since and of
// those deleted since, as ListChanges would read them.
func (db *DB) ListChangedIDs(ctx context.Context, dealID string, since int64, shared bool) (changed, removed []string, err error) {
	column := listVersionColumn(shared)
	changed, err = collect(ctx, db.reads, scanString, db.q("SELECT id FROM requests WHERE deal_id = ? AND "+column+" > ?"), dealID, since)
	if err != nil {
		return nil, nil, err
	}
	removed, err = collect(ctx, db.reads, scanString, db.q("SELECT request_id FROM request_tombstones WHERE deal_id = ? AND "+column+" > ?"), dealID, since)
	return changed, removed, err
}

// listVersionColumn is the column that stamps rows for the owning side
// or, when shared, for the counterparty.
func listVersionColumn(shared bool) string {
	if shared {
		return "shared_list_version"
	}
	return "list_version"
}

func scanString(s scanner) (string, error) {
	var v string
	err := s.Scan(&v)
	return v, err
}
