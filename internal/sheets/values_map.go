package sheets

import (
	"fmt"
	"sort"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/internal/api"
)

// ValueMap replaces what a sheet writes in a column with what dealctl
// reads (--map category:Regulatory=legal): the words of a team's own
// template that no built-in synonym covers. Values are keyed by field,
// then the cell text folded as enumeration values are (case, spaces and
// punctuation do not matter); an empty replacement reads the cell as
// blank, which changes nothing on the deal. It also names the columns a
// sheet heads in words dealctl does not know (--map number=Pos.). The
// zero value is ready to use.
type ValueMap struct {
	values  map[Field]map[string]string
	columns map[Field]string // field -> the header or column letter that holds it
}

// MappableFields are the columns --map applies to: the ones read as a
// choice or a date, and the assignee (a name a sheet uses for a person).
var MappableFields = []Field{FieldKind, FieldStatus, FieldPriority, FieldCategory, FieldDueDate, FieldAssignee}

// Add reads one --map: FIELD:TEXT=VALUE, checking that VALUE reads as
// FIELD, so that a typo fails before the sheet is read (FIELD is a field
// name or any header that names it: Workstream, Due); or FIELD=COLUMN,
// reading the column headed COLUMN (or the column letter COLUMN) as
// FIELD.
func (vm *ValueMap) Add(spec string) error {
	before, _, _ := strings.Cut(spec, "=")
	if strings.Contains(spec, "=") && !strings.Contains(before, ":") {
		return vm.addColumn(spec)
	}
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
	if vm.values == nil {
		vm.values = map[Field]map[string]string{}
	}
	if vm.values[f] == nil {
		vm.values[f] = map[string]string{}
	}
	key := mapKey(from)
	if prev, dup := vm.values[f][key]; dup && prev != to {
		return fmt.Errorf("--map %q: %s %q is already mapped to %q", spec, f, strings.TrimSpace(from), prev)
	}
	vm.values[f][key] = to
	return nil
}

// addColumn reads --map FIELD=COLUMN.
func (vm *ValueMap) addColumn(spec string) error {
	field, column, _ := strings.Cut(spec, "=")
	column = strings.TrimSpace(column)
	f, known := FieldFor(field)
	if !known || column == "" {
		return fmt.Errorf("--map %q: write FIELD:TEXT=VALUE to read a value, or FIELD=COLUMN to read a column as a field (--map number=Pos.); FIELD is one of %s",
			spec, fieldNames(Fields))
	}
	if prev, dup := vm.columns[f]; dup && normalizeHeader(prev) != normalizeHeader(column) {
		return fmt.Errorf("--map %q: %s is already read from the column %q", spec, f, prev)
	}
	if vm.columns == nil {
		vm.columns = map[Field]string{}
	}
	vm.columns[f] = column
	return nil
}

// Column is the header (or column letter) --map names for field f.
func (vm ValueMap) Column(f Field) (string, bool) {
	c, ok := vm.columns[f]
	return c, ok
}

// headerFields returns, for a candidate header row, the field each column
// holds: the one --map FIELD=COLUMN names it for (by header, else by
// column letter when no header is so named), else the one its header
// names.
func (vm ValueMap) headerFields(row []string) func(j int) (Field, bool) {
	byColumn := map[int]Field{}
	mapped := map[Field]bool{}
	for f, name := range vm.columns {
		for j, c := range row {
			if normalizeHeader(c) == normalizeHeader(name) && normalizeHeader(name) != "" {
				byColumn[j], mapped[f] = f, true
				break
			}
		}
	}
	for f, name := range vm.columns {
		if mapped[f] {
			continue
		}
		if j, ok := columnIndex(name); ok {
			if _, taken := byColumn[j]; !taken {
				byColumn[j], mapped[f] = f, true
			}
		}
	}
	return func(j int) (Field, bool) {
		if f, ok := byColumn[j]; ok {
			return f, true
		}
		if j >= len(row) {
			return "", false
		}
		f, ok := FieldFor(row[j])
		if ok && mapped[f] {
			// The field is read from the column --map names; another
			// column whose header names it is ignored.
			return "", false
		}
		return f, ok
	}
}

// columnIndex reads a column letter (A, AB) as a 0-based column.
func columnIndex(name string) (int, bool) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 3 || strings.Trim(strings.ToUpper(name), "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return 0, false
	}
	n, err := excelize.ColumnNameToNumber(name)
	if err != nil {
		return 0, false
	}
	return n - 1, true
}

// columnLetter is a 0-based column's letter (A, AB).
func columnLetter(j int) string {
	s, _ := excelize.ColumnNumberToName(j + 1)
	return s
}

// lookup returns the replacement for a cell of field f, if one is mapped.
func (vm ValueMap) lookup(f Field, cell string) (string, bool) {
	to, ok := vm.values[f][mapKey(cell)]
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
