package keys

import "testing"

func TestGenerateValidatesAndMatches(t *testing.T) {
	a, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate()
	if a == b {
		t.Fatal("two secrets are equal")
	}
	if err := Validate(a); err != nil {
		t.Fatalf("generated secret %q is invalid: %v", a, err)
	}
	if len(a) != len(SecretPrefix)+RandomLen || Prefix(a) != a[:12] {
		t.Fatalf("unexpected shape %q", a)
	}
	if !Matches(a, Hash(a)) || Matches(b, Hash(a)) {
		t.Fatal("Matches disagrees with Hash")
	}
}

func TestValidateRejects(t *testing.T) {
	for _, s := range []string{"", "dlk_", "abc_" + "0123456789012345678901234567890123", "dlk_short", "dlk_0000000000000000000000000000000!"} {
		if Validate(s) == nil {
			t.Errorf("Validate(%q) accepted a bad secret", s)
		}
	}
	if err := Validate("dlk_test0000000000000000000000000000"); err != nil {
		t.Errorf("the contract's example secret is rejected: %v", err)
	}
}
