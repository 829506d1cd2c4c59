package sqlstore

import (
	"context"

	"github.com/dealctl/dealctl/internal/store"
)

// Deals lists every deal, archived ones too, in creation order.
func (db *DB) Deals(ctx context.Context) ([]store.Deal, error) {
	return collect(ctx, db.read, scanDeal, "SELECT "+dealCols+" FROM deals ORDER BY id")
}
