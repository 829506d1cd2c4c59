// Package sheets reads request lists from spreadsheets, and holds the
// columns and header names a list has in either direction (the exporters
// write them; docs/spreadsheets.md).
//
// Reading is lenient about layout, because buyers' lists arrive in every
// shape: any sheet, title rows above the header, columns in any order and
// under common synonyms, dates as date cells, Excel serials or text.
// Reading never talks to a server; matching rows against a deal is the
// import command's job (internal/importplan).
package sheets
