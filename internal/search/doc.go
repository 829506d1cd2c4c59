// Package search holds the rules of full-text search that do not belong
// to one database: how a query is read into terms (Parse), how letters
// are folded (Fold, and FoldSQL, the pieces of PostgreSQL's fold in
// migration 0010), how a hit's snippet is cut and its words marked
// (Snippet), and when two requests are close enough to be the same
// question (Similarity).
//
// The databases decide what matches (SQLite FTS5, PostgreSQL's tsvector;
// internal/store/sqlstore/search*.go); this package only reads the query
// and shapes what is shown. docs/api.md, "Search", is the contract and
// docs/decisions.md, "Search", says why it is built this way.
package search
