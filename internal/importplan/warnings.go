package importplan

import "fmt"

// warnCap is how many warnings of one kind are listed; the rest are
// counted. Five show the pattern; five hundred bury everything else.
const warnCap = 5

// warnings gathers warnings by kind, in the order kinds first appear.
type warnings struct {
	kinds  []string
	byKind map[string][]string
	total  int
}

// add records one warning; kind names the group in the summary line
// ("…and 12 more near-duplicate titles").
func (w *warnings) add(kind, format string, a ...any) {
	if w.byKind == nil {
		w.byKind = map[string][]string{}
	}
	if _, seen := w.byKind[kind]; !seen {
		w.kinds = append(w.kinds, kind)
	}
	w.byKind[kind] = append(w.byKind[kind], fmt.Sprintf(format, a...))
	w.total++
}

// list is every kind's first warnCap warnings and a line counting the
// rest of that kind.
func (w *warnings) list() []string {
	out := []string{}
	for _, k := range w.kinds {
		ws := w.byKind[k]
		if len(ws) <= warnCap {
			out = append(out, ws...)
			continue
		}
		out = append(out, ws[:warnCap]...)
		out = append(out, fmt.Sprintf("…and %d more %s (%d in all)", len(ws)-warnCap, k, len(ws)))
	}
	return out
}

// clone is a copy that adding to either leaves the other as it was.
func (w *warnings) clone() warnings {
	c := warnings{kinds: append([]string(nil), w.kinds...), byKind: map[string][]string{}, total: w.total}
	for k, ws := range w.byKind {
		c.byKind[k] = append([]string(nil), ws...)
	}
	return c
}
