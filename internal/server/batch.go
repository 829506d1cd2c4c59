package server

import (
	"net/http"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// withBatch carries a call's X-Dealctl-Batch (extension "batch") to the
// store, which writes it into the data of the events the call records. A
// value that is not a batch id is a 400 rather than ignored: a run whose
// writes went unmarked could not be taken back as one.
func withBatch(r *http.Request) (*http.Request, error) {
	id := r.Header.Get(api.BatchHeader)
	if id == "" {
		return r, nil
	}
	if !api.ValidBatchID(id) {
		return r, &api.ErrorResponse{Code: api.CodeBadRequest, Params: map[string]any{"reason": api.ReasonInvalidBatch, "header": api.BatchHeader,
			"message": "a batch id is 1 to 64 letters, digits, '.', '_' or '-'"}}
	}
	return r.WithContext(store.WithBatch(r.Context(), id)), nil
}
