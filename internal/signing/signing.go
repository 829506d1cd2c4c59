// Package signing is the home of the server's one signing secret: a
// random key kept in the database (so that every instance on one
// database signs and checks alike) behind HMAC-SHA256. Download links
// (internal/server) and reply addresses (internal/replyaddr) sign with
// it, each under a key of its own (For), so that a token made for one
// use never verifies as another.
package signing

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// settingName is the secret's setting. It is named after download links,
// its first use, and keeps that name so that a database made before
// keeps its secret (and the links it signed).
const settingName = "download_link_secret"

// Settings is the part of the store that keeps server-wide settings.
type Settings interface {
	// Setting reads a setting, creating it with create() the first time.
	Setting(ctx context.Context, name string, create func() (string, error)) (string, error)
}

// Key signs with HMAC-SHA256.
type Key struct{ secret []byte }

// Load reads the server's secret, creating it (32 random bytes) on a new
// database.
func Load(ctx context.Context, st Settings) (*Key, error) {
	v, err := st.Setting(ctx, settingName, func() (string, error) {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		return hex.EncodeToString(b[:]), nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read the link-signing secret: %w", err)
	}
	secret, err := hex.DecodeString(v)
	if err != nil || len(secret) < 16 {
		return nil, fmt.Errorf("the stored link-signing secret is malformed")
	}
	return &Key{secret: secret}, nil
}

// NewKey makes a key of secret, for tests and tools that hold one.
func NewKey(secret []byte) *Key { return &Key{secret: append([]byte(nil), secret...)} }

// MAC is the HMAC-SHA256 of payload under k.
func (k *Key) MAC(payload []byte) []byte {
	m := hmac.New(sha256.New, k.secret)
	m.Write(payload)
	return m.Sum(nil)
}

// Equal compares a presented MAC with the expected one in constant time.
func Equal(got, want []byte) bool { return hmac.Equal(got, want) }

// For derives the key of one use (its purpose names it, like
// "reply-address"): a token signed for one purpose does not verify under
// another's key.
func (k *Key) For(purpose string) *Key {
	return &Key{secret: k.MAC([]byte("dealctl purpose: " + purpose))}
}
