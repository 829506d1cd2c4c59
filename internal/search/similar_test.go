package search

import "testing"

func TestSimilarity(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"Audited accounts FY2023", "Copies of the audited accounts for FY2023", true},
		{"Customer contracts", "All material customer contracts", true},
		{"Tax returns", "VAT returns", false},
		{"Board minutes", "Share register", false},
		{"Société Générale facility", "Societe Generale facility", true},
		{"Pension schemes", "", false},
	} {
		if got := Similar(tc.a, "", tc.b, ""); got != tc.want {
			t.Errorf("Similar(%q, %q) = %v (%.2f), want %v", tc.a, tc.b, got, Similarity(tc.a, "", tc.b, ""), tc.want)
		}
	}
	// Bodies weigh a quarter where both say something.
	body := "Every lease of the group's properties"
	title := Similarity("Leases", "", "Lease agreements and amendments", "")
	withBodies := Similarity("Leases", body, "Lease agreements and amendments", body)
	if title >= SimilarThreshold || withBodies < SimilarThreshold {
		t.Errorf("title alone %.2f, with the same bodies %.2f", title, withBodies)
	}
	if q := SimilarQuery("Copies of all the audited accounts"); q != "audited account" {
		t.Errorf("SimilarQuery = %q", q)
	}
}
