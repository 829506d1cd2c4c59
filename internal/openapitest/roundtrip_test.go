package openapitest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

func TestRoundTripperChecksEveryExchange(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/me", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, sampleMe()) })
	mux.HandleFunc("POST /api/v1/deals/{deal_id}/requests", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(b), "Cap table") {
			t.Errorf("server got body %q: the transport lost it", b)
		}
		// Non-conforming on purpose: a Deal where a DealRequest is declared.
		writeJSON(w, 201, api.Deal{ID: "d", Parties: []api.Party{}})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	v := New(t)
	rec := &recordingTB{TB: t}
	client := &http.Client{Transport: v.RoundTripper(rec, srv.Client().Transport)}

	req, _ := http.NewRequest("GET", srv.URL+"/api/v1/me", nil)
	req.Header.Set("Authorization", "Bearer k")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"organization"`) {
		t.Fatalf("caller did not get the body: %q", body)
	}
	if errs := rec.errors(); len(errs) > 0 {
		t.Fatalf("conforming exchange reported: %q", errs)
	}

	req, _ = http.NewRequest("POST", srv.URL+"/api/v1/deals/"+dealID+"/requests", strings.NewReader(`{"title":"Cap table"}`))
	req.Header.Set("Authorization", "Bearer k")
	req.Header.Set("Content-Type", "application/json")
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !contains(rec.errors(), "POST /api/v1/deals/"+dealID+"/requests → 201") {
		t.Fatalf("non-conforming exchange not reported; got %q", rec.errors())
	}
	if got := v.Exercised(); strings.Join(got, ";") != "GET /api/v1/me;POST /api/v1/deals/{deal_id}/requests" {
		t.Fatalf("Exercised() = %q", got)
	}
}
