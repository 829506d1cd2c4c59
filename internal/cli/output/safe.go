package output

import (
	"reflect"

	"github.com/dealctl/dealctl/internal/termsafe"
)

// Text from the server reaches a terminal only through this file and
// internal/termsafe: a counterparty's message or an owner's title must
// never act on the reader's terminal (see docs/decisions.md, "Server text
// on a terminal"). json and yaml print the API's data as it is.

// multilineFields are the API fields that hold prose, whose newlines and
// tabs are kept; every other string is shown on one line.
var multilineFields = map[string]bool{"Body": true, "Text": true}

// SafeCopy returns a deep copy of v whose strings are made safe for a
// terminal: the fields named Body or Text with termsafe.Text, every other
// string with termsafe.Line. A human view prints the copy, while -o json
// prints v itself, unchanged.
func SafeCopy[T any](v T) T {
	src := reflect.ValueOf(&v).Elem()
	dst := reflect.New(src.Type()).Elem()
	copySafe(dst, src, false)
	return dst.Interface().(T)
}

func copySafe(dst, src reflect.Value, multiline bool) {
	dst.Set(src) // what has no strings (times, numbers) is copied as it is
	switch src.Kind() {
	case reflect.String:
		if multiline {
			dst.SetString(termsafe.Text(src.String()))
		} else {
			dst.SetString(termsafe.Line(src.String()))
		}
	case reflect.Pointer:
		if !src.IsNil() {
			p := reflect.New(src.Type().Elem())
			copySafe(p.Elem(), src.Elem(), multiline)
			dst.Set(p)
		}
	case reflect.Struct:
		for i := range src.NumField() {
			if f := src.Type().Field(i); f.IsExported() {
				copySafe(dst.Field(i), src.Field(i), multilineFields[f.Name])
			}
		}
	case reflect.Slice:
		if !src.IsNil() {
			s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
			for i := range src.Len() {
				copySafe(s.Index(i), src.Index(i), multiline)
			}
			dst.Set(s)
		}
	case reflect.Map:
		if !src.IsNil() {
			m := reflect.MakeMapWithSize(src.Type(), src.Len())
			for it := src.MapRange(); it.Next(); {
				k := reflect.New(src.Type().Key()).Elem()
				copySafe(k, it.Key(), false)
				e := reflect.New(src.Type().Elem()).Elem()
				copySafe(e, it.Value(), multiline)
				m.SetMapIndex(k, e)
			}
			dst.Set(m)
		}
	case reflect.Interface:
		if !src.IsNil() {
			e := reflect.New(src.Elem().Type()).Elem()
			copySafe(e, src.Elem(), multiline)
			dst.Set(e)
		}
	}
}

// TerminalSafe makes a rendered human view safe as a whole: see
// termsafe.Styled.
func TerminalSafe(out string, color bool) string { return termsafe.Styled(out, color) }
