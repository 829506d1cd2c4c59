package cli

import (
	"fmt"
	"strings"
)

// didYouMean and editDistance suggest the value a typo was meant to be;
// argument-count mistakes are explained by cmdutil.RefuseUsageMistakes.

// didYouMean is ` (did you mean "x"?)` for the allowed value nearest v
// when it is near enough to be a typo, else "".
func didYouMean(v string, allowed []string) string {
	best, bestD := "", 3
	lv := strings.ToLower(v)
	for _, a := range allowed {
		d := editDistance(lv, strings.ToLower(a))
		if strings.HasPrefix(strings.ToLower(a), lv) && lv != "" {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = a, d
		}
	}
	if best == "" || bestD > max(1, len(v)/3) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
