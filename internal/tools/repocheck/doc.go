// Package repocheck holds the tests that keep the repository standing on
// its own: a reader of it has nothing else, so no file may point outside
// it, and every citation of a document must lead somewhere in it.
package repocheck
