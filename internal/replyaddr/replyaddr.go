// Package replyaddr makes and reads the reply addresses that
// notification e-mails carry (reply+TOKEN@DOMAIN, docs/mail.md): the
// token names the notification (and through it the person it went to
// and the request it is about) and when the address expires, signed
// with the server's secret (internal/signing) so that no one can make
// one up.
//
// The whole address stays within RFC 5321's 64 characters of a local
// part, and the token is lower-case base32, since some mail systems fold
// a local part's case.
package replyaddr

import (
	"encoding/base32"
	"encoding/binary"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/dealctl/dealctl/internal/signing"
	"github.com/dealctl/dealctl/internal/store"
)

// Prefix starts every reply address's local part.
const Prefix = "reply+"

// DefaultTTL is how long a reply address takes replies: a month, since
// people answer a notification long after it came.
const DefaultTTL = 30 * 24 * time.Hour

// purpose names the signing key of reply addresses (signing.Key.For).
const purpose = "reply-address"

// macLen is how much of the HMAC a token keeps: 80 bits, ample against
// guessing through an SMTP conversation, and short enough for the 64
// characters of a local part.
const macLen = 10

// The token's bytes: the notification's id, the expiry (Unix seconds),
// then the MAC over both.
const (
	idLen      = 16
	expiryLen  = 4
	payloadLen = idLen + expiryLen
	tokenLen   = payloadLen + macLen
)

var encoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Errors of Verify.
var (
	ErrInvalid = errors.New("the reply address is not one this server made")
	ErrExpired = errors.New("the reply address has expired")
)

// Token is what a reply address says.
type Token struct {
	NotificationID string
	Expires        time.Time
}

// Signer makes and checks tokens.
type Signer struct{ key *signing.Key }

// NewSigner signs with the reply addresses' own key derived from the
// server's.
func NewSigner(server *signing.Key) *Signer { return &Signer{key: server.For(purpose)} }

// Sign makes t's token; t.NotificationID must be a UUID (store.NewID).
func (s *Signer) Sign(t Token) (string, error) {
	id, err := uuid.Parse(t.NotificationID)
	if err != nil {
		return "", err
	}
	b := make([]byte, payloadLen, tokenLen)
	copy(b, id[:])
	binary.BigEndian.PutUint32(b[idLen:], uint32(t.Expires.Unix()))
	b = append(b, s.key.MAC(b)[:macLen]...)
	return encoding.EncodeToString(b), nil
}

// Address is t's reply address on domain.
func (s *Signer) Address(t Token, domain string) (string, error) {
	tok, err := s.Sign(t)
	if err != nil {
		return "", err
	}
	return Prefix + tok + "@" + domain, nil
}

// Verify checks the signature first, then the expiry against now: a
// tampered token says nothing about what it names. An expired token is
// returned with ErrExpired, so that the refusal can say so.
func (s *Signer) Verify(token string, now time.Time) (Token, error) {
	b, err := encoding.DecodeString(strings.ToLower(token))
	if err != nil || len(b) != tokenLen {
		return Token{}, ErrInvalid
	}
	if !signing.Equal(b[payloadLen:], s.key.MAC(b[:payloadLen])[:macLen]) {
		return Token{}, ErrInvalid
	}
	id, _ := uuid.FromBytes(b[:idLen])
	t := Token{NotificationID: id.String(), Expires: time.Unix(int64(binary.BigEndian.Uint32(b[idLen:])), 0).UTC()}
	if !now.Before(t.Expires) {
		return t, ErrExpired
	}
	return t, nil
}

// TokenOf finds the token in a recipient address: its local part must be
// Prefix and a token, its domain domain (both compared without case).
// ok is false for any other address.
func TokenOf(addr, domain string) (token string, ok bool) {
	addr = strings.Trim(strings.TrimSpace(addr), "<>")
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || !strings.EqualFold(addr[at+1:], domain) {
		return "", false
	}
	local := addr[:at]
	if len(local) <= len(Prefix) || !strings.EqualFold(local[:len(Prefix)], Prefix) {
		return "", false
	}
	return strings.ToLower(local[len(Prefix):]), true
}

// ForNotifications gives each message notification its reply address on
// domain, valid for ttl from when the notification was queued (so that a
// retried delivery carries the same address); a digest, which is about
// many requests, gets none ("").
func (s *Signer) ForNotifications(domain string, ttl time.Duration) func(n store.Notification) string {
	return func(n store.Notification) string {
		if n.Kind != "" && n.Kind != store.NotifyMessage {
			return ""
		}
		addr, err := s.Address(Token{NotificationID: n.ID, Expires: n.CreatedAt.Add(ttl)}, domain)
		if err != nil {
			return "" // a row whose id is no UUID (none the server makes)
		}
		return addr
	}
}
