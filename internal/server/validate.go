package server

import (
	"github.com/dealctl/dealctl/internal/api"
)

// fieldErrors gathers every bad field of one call's query or body shape
// (a filter, a limit, a field of the wrong JSON type), so a caller learns
// of all of them at once. The rules of the fields of a write are the
// service's (internal/service, fields.go).
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
