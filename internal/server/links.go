package server

import (
	"context"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/signing"
	"github.com/dealctl/dealctl/internal/store"
)

// linkSigner signs download tokens with the server's secret
// (internal/signing), which lives in the database, so a link signed by
// one instance downloads from any other.
type linkSigner struct {
	key *signing.Key
}

func loadLinkSigner(ctx context.Context, st store.Store) (*linkSigner, error) {
	key, err := signing.Load(ctx, st)
	if err != nil {
		return nil, err
	}
	return &linkSigner{key: key}, nil
}

// linkClaims is what a download token carries: the file, the person
// and the key that asked for it (by its public prefix, as logs name a
// key), so that a fetch is checked as the issue was and charged to that
// key's rate budget.
type linkClaims struct {
	DealID    string
	VersionID string
	PersonID  string
	KeyPrefix string
	Expires   time.Time
}

var (
	errLinkTampered = errors.New("the download link is not valid")
	errLinkExpired  = errors.New("the download link has expired")
)

// Sign makes a token: the claims in the clear, then an HMAC-SHA256 over
// them, both base64url.
func (l *linkSigner) Sign(c linkClaims) string {
	payload := strings.Join([]string{c.DealID, c.VersionID, c.PersonID, c.KeyPrefix, strconv.FormatInt(c.Expires.Unix(), 10)}, "|")
	enc := base64.RawURLEncoding.EncodeToString([]byte(payload))
	return enc + "." + base64.RawURLEncoding.EncodeToString(l.mac(enc))
}

func (l *linkSigner) mac(payload string) []byte { return l.key.MAC([]byte(payload)) }

// Verify checks the signature first, then the expiry: a tampered token
// says nothing about its contents.
func (l *linkSigner) Verify(token string, now time.Time) (linkClaims, error) {
	enc, sig, ok := strings.Cut(token, ".")
	if !ok {
		return linkClaims{}, errLinkTampered
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !signing.Equal(got, l.mac(enc)) {
		return linkClaims{}, errLinkTampered
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return linkClaims{}, errLinkTampered
	}
	// A token of the earlier four-part shape (it named no key) is refused
	// like a tampered one: it lived 60 s, and cannot be checked as the
	// fetch needs.
	parts := strings.Split(string(raw), "|")
	if len(parts) != 5 {
		return linkClaims{}, errLinkTampered
	}
	exp, err := strconv.ParseInt(parts[4], 10, 64)
	if err != nil {
		return linkClaims{}, errLinkTampered
	}
	c := linkClaims{DealID: parts[0], VersionID: parts[1], PersonID: parts[2], KeyPrefix: parts[3], Expires: time.Unix(exp, 0)}
	if !now.Before(c.Expires) {
		return c, errLinkExpired
	}
	return c, nil
}
