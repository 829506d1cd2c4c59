// Package csvsafe keeps text cells of a csv or tsv from being run as
// formulas by the spreadsheet program that opens the file ("CSV
// injection"), and reads such cells back to the text they stand for.
//
// A cell whose text starts with = + - @, a tab or a carriage return is
// written with a leading apostrophe, as OWASP's "CSV Injection" page
// advises: Excel and LibreOffice then show it as text. Text that already
// starts with apostrophes in front of such a character gets one more, so
// that reading back (drop one apostrophe where the rest would need one) is
// exact for every string: Neutralize and Restore are inverses.
package csvsafe

import "strings"

// triggers are the first characters that make a spreadsheet program read
// a cell as a formula (or, for tab and CR, let a formula hide behind
// blank space).
const triggers = "=+-@\t\r"

// needsGuard reports whether s, once any leading apostrophes are set
// aside, starts with a trigger.
func needsGuard(s string) bool {
	rest := strings.TrimLeft(s, "'")
	return rest != "" && strings.IndexByte(triggers, rest[0]) >= 0
}

// Neutralize returns the cell text to write: s itself, or s behind one
// apostrophe when a spreadsheet would read it as a formula.
func Neutralize(s string) string {
	if needsGuard(s) {
		return "'" + s
	}
	return s
}

// Restore undoes Neutralize on a cell read from a file: the apostrophe in
// front of a guarded cell is dropped; anything else is left as it is.
func Restore(s string) string {
	if strings.HasPrefix(s, "'") && needsGuard(s) {
		return s[1:]
	}
	return s
}

// Record neutralises every cell of a record in place and returns it.
func Record(rec []string) []string {
	for i, c := range rec {
		rec[i] = Neutralize(c)
	}
	return rec
}
