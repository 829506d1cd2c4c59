package replyaddr

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/dealctl/dealctl/internal/signing"
)

func TestAddressRoundTripAndFits(t *testing.T) {
	s := NewSigner(signing.NewKey([]byte("0123456789abcdef0123456789abcdef")))
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	id := uuid.Must(uuid.NewV7()).String()
	addr, err := s.Address(Token{NotificationID: id, Expires: now.Add(DefaultTTL)}, "reply.example.com")
	if err != nil {
		t.Fatal(err)
	}
	local := addr[:strings.IndexByte(addr, '@')]
	if len(local) > 64 || local != strings.ToLower(local) {
		t.Fatalf("local part %q: %d characters, want at most 64 in lower case", local, len(local))
	}
	// Mail systems may change the case of the whole address.
	tok, ok := TokenOf(strings.ToUpper(addr), "Reply.Example.com")
	if !ok {
		t.Fatalf("TokenOf(%q) found no token", addr)
	}
	got, err := s.Verify(tok, now)
	if err != nil || got.NotificationID != id || !got.Expires.Equal(now.Add(DefaultTTL)) {
		t.Fatalf("Verify = %+v, %v; want %s expiring %v", got, err, id, now.Add(DefaultTTL))
	}
	if _, err := s.Verify(tok, now.Add(DefaultTTL)); !errors.Is(err, ErrExpired) {
		t.Fatalf("at expiry: %v, want ErrExpired", err)
	}
}

func TestTamperedOrForeignTokensAreInvalid(t *testing.T) {
	key := signing.NewKey([]byte("0123456789abcdef0123456789abcdef"))
	s := NewSigner(key)
	now := time.Now()
	tok, _ := s.Sign(Token{NotificationID: uuid.NewString(), Expires: now.Add(time.Hour)})
	flipped := []byte(tok)
	flipped[3] ^= 1 // another letter of the alphabet
	other := NewSigner(signing.NewKey([]byte("another secret of thirty-two b..")))
	for name, token := range map[string]string{
		"tampered":         string(flipped),
		"cut":              tok[:len(tok)-1],
		"another server's": must(other.Sign(Token{NotificationID: uuid.NewString(), Expires: now.Add(time.Hour)})),
		"not base32":       strings.Repeat("!", len(tok)),
	} {
		if _, err := s.Verify(token, now); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s token: %v, want ErrInvalid", name, err)
		}
	}
	// A download link's key (the server's own) does not sign reply tokens.
	if _, err := NewSigner(key.For("download")).Verify(tok, now); !errors.Is(err, ErrInvalid) {
		t.Errorf("a token under another purpose's key verified: %v", err)
	}
	for _, addr := range []string{"reply+" + tok + "@elsewhere.example", "noreply@reply.example.com", "reply+@reply.example.com", tok + "@reply.example.com"} {
		if _, ok := TokenOf(addr, "reply.example.com"); ok {
			t.Errorf("TokenOf(%q) took it", addr)
		}
	}
}

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}
