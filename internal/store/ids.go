package store

import "github.com/google/uuid"

// NewID returns a time-ordered UUID (v7), so rows sort by creation. It
// lives here rather than in sqlstore so that what builds rows without a
// database (world files, admin keys) links no database driver.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }
