// Package keys makes and checks API key secrets. A secret is "dlk_"
// followed by 40 random base62 characters; its first 12 characters are
// its public prefix, and only its SHA-256 is stored. A fast hash is right
// here: the secret carries 238 bits of randomness, so there is nothing to
// brute-force, and every API call verifies one.
package keys

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"math/big"
	"strings"
)

const (
	// SecretPrefix starts every secret, so that scanners and people can
	// tell a dealctl key.
	SecretPrefix = "dlk_"
	// RandomLen is how many random base62 characters follow it.
	RandomLen = 40
	// MinRandomLen is the shortest random part accepted for secrets given
	// explicitly (world files, tests).
	MinRandomLen = 32
	// PrefixLen is how much of the secret is shown after creation.
	PrefixLen = 12
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Generate returns a new random secret.
func Generate() (string, error) {
	var b strings.Builder
	b.WriteString(SecretPrefix)
	limit := big.NewInt(int64(len(base62)))
	for range RandomLen {
		n, err := rand.Int(rand.Reader, limit)
		if err != nil {
			return "", err
		}
		b.WriteByte(base62[n.Int64()])
	}
	return b.String(), nil
}

// Validate checks that secret has the documented form.
func Validate(secret string) error {
	rest, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return fmt.Errorf("a key starts with %q", SecretPrefix)
	}
	if len(rest) < MinRandomLen {
		return fmt.Errorf("a key has at least %d characters after %q", MinRandomLen, SecretPrefix)
	}
	for i := 0; i < len(rest); i++ {
		if !strings.ContainsRune(base62, rune(rest[i])) {
			return fmt.Errorf("a key has only letters and digits after %q", SecretPrefix)
		}
	}
	return nil
}

// Prefix is the public part of a secret.
func Prefix(secret string) string {
	if len(secret) < PrefixLen {
		return secret
	}
	return secret[:PrefixLen]
}

// Hash is what is stored for a secret.
func Hash(secret string) []byte {
	sum := sha256.Sum256([]byte(secret))
	return sum[:]
}

// Matches compares a presented secret with a stored hash in constant time.
func Matches(secret string, hash []byte) bool {
	return subtle.ConstantTimeCompare(Hash(secret), hash) == 1
}
