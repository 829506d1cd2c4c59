package api

import (
	"testing"

	"github.com/google/uuid"
)

func TestIsID(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"0b0f6a8e-6f55-4a41-9d43-0f1b2c3d4e5f", true},
		{"0B0F6A8E-6F55-4A41-9D43-0F1B2C3D4E5F", true},
		{"0b0f6a8e6f554a419d430f1b2c3d4e5f", false},              // no dashes
		{"{0b0f6a8e-6f55-4a41-9d43-0f1b2c3d4e5f}", false},        // braces
		{"urn:uuid:0b0f6a8e-6f55-4a41-9d43-0f1b2c3d4e5f", false}, // a URN
		{"0b0f6a8e-6f55-4a41-9d43-0f1b2c3d4e5g", false},          // not hex
		{"0b0f6a8e-6f55-4a41-9d430-f1b2c3d4e5f", false},          // a dash misplaced
		{"DD-001", false},
		{"2.3", false},
		{"", false},
	} {
		if got := IsID(c.s); got != c.want {
			t.Errorf("IsID(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

func TestIsIDStart(t *testing.T) {
	const id = "0b0f6a8e-6f55-4a41-9d43-0f1b2c3d4e5f"
	for _, c := range []struct {
		s    string
		want bool
	}{
		{id, true},
		{id[:4], true},
		{"ABCD", true},
		{id[:9], true}, // up to the first dash
		{"", true},
		{"0b0f6a8e6", false}, // a digit where the dash goes
		{"abcg", false},
		{"zz!!", false},
		{"2.3", false},
		{id + "0", false},
	} {
		if got := IsIDStart(c.s); got != c.want {
			t.Errorf("IsIDStart(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// FuzzIsID: the ids IsID takes are the 36-character UUIDs the uuid
// package parses, and no others.
func FuzzIsID(f *testing.F) {
	f.Add("0b0f6a8e-6f55-4a41-9d43-0f1b2c3d4e5f")
	f.Add("DD-001")
	f.Fuzz(func(t *testing.T, s string) {
		_, err := uuid.Parse(s)
		if want := len(s) == 36 && err == nil; IsID(s) != want {
			t.Fatalf("IsID(%q) = %v, uuid.Parse agrees: %v", s, IsID(s), want)
		}
	})
}
