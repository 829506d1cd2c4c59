package domain

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
