package domain

import "strings"

// FirstTierMatches returns the items that pass the first of tests any
// item passes. Tests come in order of preference (an id or an email
// before a name), so that an exact match is not lost among people who
// share a name. More than one item returned is ambiguous; nil, no match.
func FirstTierMatches[T any](items []T, tests ...func(T) bool) []T {
	for _, test := range tests {
		var found []T
		for _, it := range items {
			if test(it) {
				found = append(found, it)
			}
		}
		if len(found) > 0 {
			return found
		}
	}
	return nil
}

// DealsNamed returns the deals ref names, as every command that takes a
// deal by name finds it: by id, else by codename, else by name, letters
// in either case. fields reads a deal's id, codename and name. More than
// one deal returned is ambiguous, and the caller refuses to pick one.
func DealsNamed[T any](deals []T, ref string, fields func(T) (id, codename, name string)) []T {
	return FirstTierMatches(deals,
		func(d T) bool { id, _, _ := fields(d); return id == ref },
		func(d T) bool { _, codename, _ := fields(d); return strings.EqualFold(codename, ref) },
		func(d T) bool { _, _, name := fields(d); return strings.EqualFold(name, ref) },
	)
}
