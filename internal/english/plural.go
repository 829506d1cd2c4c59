// Package english holds the small rules of English that messages to
// people need, so that each is written once.
package english

// Plural is one when n is 1, else many: Plural(n, "row was", "rows
// were"). Zero takes the plural, as in "0 rows".
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
