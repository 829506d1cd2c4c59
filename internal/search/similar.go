package search

import "strings"

// "Asked before": a new request close to one already on the deal is
// named before it is written (requests create stops unless --force,
// import's plan warns, answer --similar lists their answers). Close
// means Similarity at or above SimilarThreshold (docs/decisions.md,
// "Search").

// SimilarThreshold is the Similarity from which two requests are taken
// for the same question. At 0.6 "Audited accounts FY2023" and "Copies of
// the audited accounts for FY2023" are (1.0), "Customer contracts" and
// "All material customer contracts" are (0.8), "Tax returns" and "VAT
// returns" are not (0.5).
const SimilarThreshold = 0.6

// stopWords carry no meaning in a request: "Copies of all board minutes"
// and "Board minutes" ask for the same thing.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "and": true, "or": true, "for": true, "to": true, "in": true,
	"on": true, "all": true, "any": true, "each": true, "copy": true, "copies": true, "please": true,
	"provide": true, "list": true, "details": true, "detail": true, "including": true, "with": true,
	"be": true, "by": true, "from": true, "is": true, "are": true, "as": true, "at": true, "it": true, "its": true,
	"this": true, "that": true, "these": true, "those": true, "your": true, "our": true, "we": true, "you": true,
}

// SignificantWords are text's words folded (lower case, no accents),
// without stop words or repeats, a plural's s taken off, in order.
func SignificantWords(text string) []string {
	seen := map[string]bool{}
	var keep []string
	for _, w := range Words(text) {
		if stopWords[w] {
			continue
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = strings.TrimSuffix(w, "s")
		}
		if !seen[w] {
			seen[w] = true
			keep = append(keep, w)
		}
	}
	return keep
}

// Similarity of two requests, 0 to 1: the Dice coefficient of their
// titles' significant words (twice the shared over the sum); where both
// bodies have three significant words or more, three quarters of it and
// a quarter of their bodies'. Titles are what a reader compares; a body
// only confirms or weakens.
func Similarity(titleA, bodyA, titleB, bodyB string) float64 {
	title := dice(SignificantWords(titleA), SignificantWords(titleB))
	a, b := SignificantWords(bodyA), SignificantWords(bodyB)
	if len(a) < 3 || len(b) < 3 {
		return title
	}
	return 0.75*title + 0.25*dice(a, b)
}

// Similar reports whether two requests are the same question.
func Similar(titleA, bodyA, titleB, bodyB string) bool {
	return Similarity(titleA, bodyA, titleB, bodyB) >= SimilarThreshold
}

func dice(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	in := make(map[string]bool, len(a))
	for _, w := range a {
		in[w] = true
	}
	shared := 0
	for _, w := range b {
		if in[w] {
			shared++
		}
	}
	return 2 * float64(shared) / float64(len(a)+len(b))
}

// SimilarQuery is the search that finds the candidates for a request
// titled title: its significant words, any of which may match (match=any
// ranks those holding most first). "" when the title has none.
func SimilarQuery(title string) string {
	words := SignificantWords(title)
	return strings.Join(words[:min(len(words), MaxTerms)], " ")
}
