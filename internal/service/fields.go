package service

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// fieldErrors gathers every bad field of one input, so that its sender
// learns of all of them at once.
type fieldErrors []api.FieldError

func (f *fieldErrors) add(path, code string, params map[string]any) {
	*f = append(*f, api.FieldError{Path: path, Code: code, Params: params})
}

// err is nil when nothing was wrong, else a 422.
func (f fieldErrors) err() error {
	if len(f) == 0 {
		return nil
	}
	return &api.ErrorResponse{Code: api.CodeValidationFailed, Fields: f}
}

// title: required, 1..500, not blank.
func (f *fieldErrors) title(o api.Optional[string], required bool) {
	switch {
	case !o.Set:
		if required {
			f.add("title", api.FieldRequired, nil)
		}
	case o.Null:
		f.add("title", api.FieldRequired, nil)
	default:
		f.check("title", o.Value, domain.TitleRule)
	}
}

// text checks a non-nullable string by its rule.
func (f *fieldErrors) text(path string, o api.Optional[string], rule domain.TextRule) {
	switch {
	case !o.Set:
	case o.Null:
		f.add(path, api.FieldInvalid, map[string]any{"expected": "string"})
	default:
		f.check(path, o.Value, rule)
	}
}

// nullableText checks a nullable string by its rule.
func (f *fieldErrors) nullableText(path string, o api.Optional[string], rule domain.TextRule) {
	if o.Set && !o.Null {
		f.check(path, o.Value, rule)
	}
}

// check reports what rule finds wrong with s, in the API's codes.
func (f *fieldErrors) check(path, s string, rule domain.TextRule) {
	switch rule.Check(s) {
	case domain.TextEmpty:
		f.add(path, api.FieldTooShort, map[string]any{"min": 1})
	case domain.TextTooLong:
		f.add(path, api.FieldTooLong, map[string]any{"max": rule.Max})
	case domain.TextUntrimmed:
		f.add(path, api.FieldInvalid, map[string]any{"reason": "leading_or_trailing_whitespace"})
	case domain.TextNUL:
		// No database column takes a NUL: it is refused rather than
		// silently dropped.
		f.add(path, api.FieldInvalid, map[string]any{"reason": "nul_character"})
	case domain.TextBlank:
		f.add(path, api.FieldBlank, nil)
	}
}

// number: 1..64 characters, no leading or trailing white space.
func (f *fieldErrors) number(o api.Optional[string], nullable bool) {
	switch {
	case !o.Set:
	case o.Null:
		if !nullable {
			f.add("number", api.FieldInvalid, map[string]any{"expected": "string"})
		}
	default:
		f.check("number", o.Value, domain.NumberRule)
		if domain.NumberRule.Check(o.Value) == domain.TextOK {
			f.numberShape(o.Value)
		}
	}
}

// numberShape refuses a number the spreadsheet import could not read
// back (domain.CheckNumberShape), so that a deal imports its own export.
func (f *fieldErrors) numberShape(n string) {
	switch domain.CheckNumberShape(n) {
	case domain.NumberHasSpace:
		f.add("number", api.FieldInvalid, map[string]any{"reason": "whitespace_inside", "example": "2.3"})
	case domain.NumberEmptyPart:
		f.add("number", api.FieldInvalid, map[string]any{"reason": "empty_part", "example": "2.3"})
	}
}

// enum checks a non-nullable enumerated field.
func enum[T ~string](f *fieldErrors, path string, o api.Optional[T], allowed []T) {
	if !o.Set {
		return
	}
	if o.Null || !api.OneOf(o.Value, allowed) {
		f.add(path, api.FieldUnknownValue, map[string]any{"allowed": api.Names(allowed)})
	}
}

// dueDate: null or a calendar date.
func (f *fieldErrors) dueDate(o api.Optional[string]) {
	if !o.Set || o.Null {
		return
	}
	if _, err := time.Parse(time.DateOnly, o.Value); err != nil {
		f.add("due_date", api.FieldInvalid, map[string]any{"format": "date", "example": "2026-12-01"})
	}
}

// uuidField: null or a uuid, in either case; a valid one is put in the
// lower case ids are stored in, so that an upper-case spelling names the
// same row, as it does in paths. It reports whether a value is there to
// look up.
func (f *fieldErrors) uuidField(path string, o *api.Optional[string]) bool {
	if !o.Set || o.Null {
		return false
	}
	if !api.IsID(o.Value) {
		f.add(path, api.FieldInvalid, map[string]any{"format": "uuid"})
		return false
	}
	o.Value = api.CanonicalID(o.Value)
	return true
}

// links: at most 20, each an https URL of at most 2048 characters with a
// label of at most 200.
func (f *fieldErrors) links(o api.Optional[[]api.Link]) {
	if !o.Set {
		return
	}
	if o.Null {
		// Not nullable in the document: an empty list says "none".
		f.add("links", api.FieldInvalid, map[string]any{"expected": "array"})
		return
	}
	if len(o.Value) > api.MaxLinks {
		f.add("links", api.FieldTooMany, map[string]any{"max": api.MaxLinks})
		return
	}
	for i, l := range o.Value {
		path := "links[" + strconv.Itoa(i) + "]"
		switch code := api.LinkURLProblem(l.URL); code {
		case "":
		case api.FieldTooLong:
			f.add(path+".url", code, map[string]any{"max": api.MaxLinkURLLen})
		default:
			f.add(path+".url", code, nil)
		}
		if l.Label != nil {
			f.check(path+".label", *l.Label, domain.LinkLabelRule)
		}
	}
}

// notOnSection refuses an assignee or a due date for a section, a heading
// that has neither, rather than dropping it: the caller would otherwise
// believe it set. Null, which is what a section has, is taken.
func (f *fieldErrors) notOnSection(path string, o api.Optional[string]) {
	if o.Set && !o.Null {
		f.add(path, api.FieldInvalid, map[string]any{"reason": "not_on_a_section"})
	}
}

// nullableBools refuses null for the booleans that are not nullable.
func (f *fieldErrors) nullableBools(fields ...namedBool) {
	for _, b := range fields {
		if b.o.Set && b.o.Null {
			f.add(b.path, api.FieldInvalid, map[string]any{"expected": "boolean"})
		}
	}
}

type namedBool struct {
	path string
	o    api.Optional[bool]
}

// parent: the section a request goes under must be one of the deal's.
func (s *Service) parent(ctx context.Context, errs *fieldErrors, dealID, parentID string) {
	p, err := s.store.Request(ctx, dealID, parentID)
	switch {
	case err != nil:
		errs.add("parent_id", api.FieldNotFound, nil)
	case p.Kind != api.KindSection:
		errs.add("parent_id", api.FieldInvalid, map[string]any{"reason": "not_a_section"})
	}
}

// assignee: the assignee must be one of the deal's people.
func assignee(errs *fieldErrors, people []store.Person, personID string) {
	if !slices.ContainsFunc(people, func(p store.Person) bool { return p.ID == personID }) {
		errs.add("assignee_id", api.FieldNotFound, nil)
	}
}

func orDefault[T ~string](o api.Optional[T], def T) T {
	if !o.Set || o.Null {
		return def
	}
	return o.Value
}

func boolOr(o api.Optional[bool], def bool) bool {
	if !o.Set || o.Null {
		return def
	}
	return o.Value
}

func ptrOf(o api.Optional[string]) *string {
	if !o.Set || o.Null {
		return nil
	}
	v := o.Value
	return &v
}
