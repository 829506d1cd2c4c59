package api

import "testing"

func TestIsWriteCall(t *testing.T) {
	for _, c := range []struct {
		method, path string
		want         bool
	}{
		{"GET", "/deals/d/requests", false},
		{"HEAD", "/deals/d/requests", false},
		{"OPTIONS", "/deals", false},
		{"POST", "/deals/d/requests", true},
		{"PATCH", "/deals/d/requests/r", true},
		{"DELETE", "/deals/d/requests/r", true},
		{"POST", "/deals/d/files/v/download-link", false},
		{"POST", "/deals/d/held-replies/h/post", true},
	} {
		if got := IsWriteCall(c.method, c.path); got != c.want {
			t.Errorf("IsWriteCall(%s %s) = %v, want %v", c.method, c.path, got, c.want)
		}
	}
}
