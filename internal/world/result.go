package world

import (
	"fmt"
	"io"
	"sort"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// Result is what Apply resolved: the id of every local name, and the
// secret of each key created in this run or given in the file. Its JSON
// is the shape of docs/world-file.md#format.
type Result struct {
	Organizations map[string]string    `json:"organizations"`
	Users         map[string]string    `json:"users"`
	Deals         map[string]string    `json:"deals"`
	People        map[string]string    `json:"people"`   // "deal/user" → person id
	Requests      map[string]string    `json:"requests"` // "deal/number" → row id
	Keys          map[string]KeyResult `json:"keys"`
}

// KeyResult is one key of a Result. Secret is empty for a key that
// already existed and whose secret the file does not give: only its hash
// is stored, so it cannot be shown again.
type KeyResult struct {
	ID     string `json:"id"`
	Secret string `json:"secret,omitempty"`
	Prefix string `json:"prefix"`

	// For callers that print keys (serve --demo); not part of the JSON.
	Name   string        `json:"-"`
	User   string        `json:"-"` // user key
	Email  string        `json:"-"`
	Access api.KeyAccess `json:"-"`
}

func newResult() *Result {
	return &Result{
		Organizations: map[string]string{},
		Users:         map[string]string{},
		Deals:         map[string]string{},
		People:        map[string]string{},
		Requests:      map[string]string{},
		Keys:          map[string]KeyResult{},
	}
}

// WriteText prints the result for a person: one line per name, sorted,
// secrets last with a reminder that they are shown once.
func (r *Result) WriteText(w io.Writer) error {
	sections := []struct {
		title string
		ids   map[string]string
	}{
		{"organization", r.Organizations}, {"user", r.Users}, {"deal", r.Deals},
		{"person", r.People}, {"request", r.Requests},
	}
	var err error
	printf := func(format string, a ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, a...)
		}
	}
	for _, s := range sections {
		for _, name := range sortedKeys(s.ids) {
			printf("%-12s %-28s %s\n", s.title, name, s.ids[name])
		}
	}
	shown := false
	for _, name := range sortedKeys(r.Keys) {
		k := r.Keys[name]
		secret := "(secret not shown: it already existed)"
		if k.Secret != "" {
			secret, shown = k.Secret, true
		}
		printf("%-12s %-28s %s %s %s\n", "key", name, k.ID, k.Prefix, secret)
	}
	if shown {
		printf("Secrets are shown once: store them now.\n")
	}
	return err
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	// Natural order, so that falcon/2.9 comes before falcon/2.10.
	sort.Slice(out, func(i, j int) bool { return domain.CompareNumbers(out[i], out[j]) < 0 })
	return out
}
