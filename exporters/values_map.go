package exporters

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// ValueMap replaces what a sheet writes in a column with what dealctl
// reads (--map category:Regulatory=legal): the words of a team's own
// template that no built-in synonym covers. Keys are fields, then the
// cell text folded as enumeration values are (case, spaces and
// punctuation do not matter); an empty replacement reads the cell as
// blank, which changes nothing on the deal.
type ValueMap map[Field]map[string]string

// MappableFields are the columns --map applies to: the ones read as a
// choice or a date, and the assignee (a name a sheet uses for a person).
var MappableFields = []Field{FieldKind, FieldStatus, FieldPriority, FieldCategory, FieldDueDate, FieldAssignee}

// Add reads one --map FIELD:TEXT=VALUE and checks that VALUE reads as
// FIELD, so that a typo fails before the sheet is read. FIELD is a field
// name or any header that names it (Workstream, Due).
func (vm ValueMap) Add(spec string) error {
	field, rest, ok := strings.Cut(spec, ":")
	from, to, ok2 := strings.Cut(rest, "=")
	if !ok || !ok2 || strings.TrimSpace(from) == "" {
		return fmt.Errorf("--map %q: write FIELD:TEXT=VALUE, e.g. --map category:Regulatory=legal or --map status:N/A= (blank)", spec)
	}
	f, known := FieldFor(field)
	if !known || !mappable(f) {
		return fmt.Errorf("--map %q: %q is not a column --map applies to: use one of %s", spec, field, fieldNames(MappableFields))
	}
	to = strings.TrimSpace(to)
	if to != "" {
		if msg := checkValue(f, to); msg != "" {
			return fmt.Errorf("--map %q: %s", spec, msg)
		}
	}
	if vm[f] == nil {
		vm[f] = map[string]string{}
	}
	key := mapKey(from)
	if prev, dup := vm[f][key]; dup && prev != to {
		return fmt.Errorf("--map %q: %s %q is already mapped to %q", spec, f, strings.TrimSpace(from), prev)
	}
	vm[f][key] = to
	return nil
}

// lookup returns the replacement for a cell of field f, if one is mapped.
func (vm ValueMap) lookup(f Field, cell string) (string, bool) {
	to, ok := vm[f][mapKey(cell)]
	return to, ok
}

// mapKey folds a cell for --map: as enumeration values are, and keeping
// the text whole when it is all punctuation ("-", "?").
func mapKey(s string) string {
	if k := normalizeValue(s); k != "" {
		return k
	}
	return strings.TrimSpace(s)
}

func mappable(f Field) bool {
	for _, m := range MappableFields {
		if m == f {
			return true
		}
	}
	return false
}

// checkValue says what is wrong with v as a value of field f, or "".
func checkValue(f Field, v string) string {
	var msg string
	switch f {
	case FieldKind:
		_, msg = parseEnum(v, "kind", kindWords, api.RequestKinds)
	case FieldStatus:
		_, msg = parseEnum(v, "status", statusWords, api.RequestStatuses)
	case FieldPriority:
		_, msg = parseEnum(v, "priority", priorityWords, api.Priorities)
	case FieldCategory:
		_, msg = parseEnum(v, "category", categoryWords, api.RequestCategories)
	case FieldDueDate:
		if _, err := parseDate(v, false, dateColumn{}); err != nil {
			msg = err.Error()
		}
	}
	return msg
}

func fieldNames(fs []Field) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}
