package openapitest

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// record notes that op answered with a 2xx or 3xx.
func (v *Validator) record(op string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.seen[op] = true
}

// Exercised lists, sorted, the operations ("METHOD /path/template") that
// answered with a 2xx or 3xx through this Validator. Error answers do not
// count: an operation is exercised once its success has been checked.
func (v *Validator) Exercised() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := make([]string, 0, len(v.seen))
	for op := range v.seen {
		out = append(out, op)
	}
	sort.Strings(out)
	return out
}

// AssertAllOperationsExercised fails the test, listing them, when some
// operations of the document were never seen answering with a 2xx or 3xx.
// Call it once the tests that use this Validator have run: at the end of
// a test whose subtests make the calls, or in its t.Cleanup.
func (v *Validator) AssertAllOperationsExercised(t testing.TB) {
	t.Helper()
	seen := v.Exercised()
	var missing []string
	for _, op := range Operations() {
		if !slices.Contains(seen, op) {
			missing = append(missing, op)
		}
	}
	if len(missing) > 0 {
		t.Errorf("openapi: %d operation(s) never answered with a 2xx or 3xx:\n\t%s",
			len(missing), strings.Join(missing, "\n\t"))
	}
}
