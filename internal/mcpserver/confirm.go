package mcpserver

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"
)

// tokenLifetime is how long a preview's confirmation token stays good:
// long enough for a person to read the preview and say yes, short
// enough that an old preview is not confirmed by accident.
const tokenLifetime = 10 * time.Minute

// Why a confirmation token is refused.
var (
	errTokenInvalid = errors.New("the confirmation_token is not one this server gave for this write: " +
		"call the tool again without it for a new preview, show it to the user, and confirm only what they approved")
	errTokenExpired = errors.New("the confirmation_token has expired (they last 10 minutes): " +
		"call the tool again without it for a new preview and ask the user again")
)

// confirmer issues and checks the confirmation tokens of previewed
// writes, and remembers what each confirmed write did, so that a
// repeated confirmation is answered without writing again.
//
// A token is the claims (which tool, which exact write, the version of
// the request it was previewed on, when it expires) signed with a secret
// the assistant never sees (Options.TokenSecret, else drawn at random by
// this process): it is opaque to the assistant, cannot be made or changed
// by it, and is good for this write only, for 10 minutes.
type confirmer struct {
	secret [32]byte
	now    func() time.Time

	mu   sync.Mutex
	done map[string]doneWrite // by the token's write fingerprint
}

// doneWrite is a confirmed write's answer, kept while its token lives.
type doneWrite struct {
	out     WriteOut
	expires time.Time
}

// claims are what a token binds.
type claims struct {
	Tool  string `json:"t"`
	Write string `json:"w"`           // the write's fingerprint (writePlan.fingerprint)
	Pre   string `json:"p,omitempty"` // the precondition the write is sent with
	Exp   int64  `json:"e"`           // Unix seconds
}

func newConfirmer(now func() time.Time, secret []byte) *confirmer {
	c := &confirmer{now: now, done: map[string]doneWrite{}}
	if len(secret) >= len(c.secret) {
		copy(c.secret[:], secret)
	} else if _, err := rand.Read(c.secret[:]); err != nil {
		panic("dealctl mcp: no randomness for confirmation tokens: " + err.Error())
	}
	return c
}

// issue is a token for the write p.
func (c *confirmer) issue(p *writePlan) (string, time.Time) {
	exp := c.now().Add(tokenLifetime).Truncate(time.Second)
	payload, _ := json.Marshal(claims{Tool: p.tool, Write: p.fingerprint(), Pre: p.precondition, Exp: exp.Unix()})
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(c.sign(payload)), exp
}

func (c *confirmer) sign(payload []byte) []byte {
	m := hmac.New(sha256.New, c.secret[:])
	m.Write(payload)
	return m.Sum(nil)
}

// check returns the claims of token when it was issued for exactly the
// write p and has not expired.
func (c *confirmer) check(token string, p *writePlan) (*claims, error) {
	enc := base64.RawURLEncoding
	body, sig, ok := strings.Cut(strings.TrimSpace(token), ".")
	if !ok {
		return nil, errTokenInvalid
	}
	payload, err1 := enc.DecodeString(body)
	mac, err2 := enc.DecodeString(sig)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, c.sign(payload)) {
		return nil, errTokenInvalid
	}
	var cl claims
	if json.Unmarshal(payload, &cl) != nil || cl.Tool != p.tool || cl.Write != p.fingerprint() {
		return nil, errTokenInvalid
	}
	if !c.now().Before(time.Unix(cl.Exp, 0)) {
		return nil, errTokenExpired
	}
	return &cl, nil
}

// remembered is what the write confirmed by cl did, if it was made.
func (c *confirmer) remembered(cl *claims) (WriteOut, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	for k, d := range c.done {
		if !now.Before(d.expires) {
			delete(c.done, k)
		}
	}
	d, ok := c.done[cl.Write]
	return d.out, ok
}

// remember keeps what the write confirmed by cl did, for as long as its
// token lives.
func (c *confirmer) remember(cl *claims, out WriteOut) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done[cl.Write] = doneWrite{out: out, expires: time.Unix(cl.Exp, 0)}
}

// idempotencyKey is the Idempotency-Key of a write: derived from the
// write itself, so that every repeat of one logical write (the same
// tool call sent again, a confirmation repeated, this process restarted)
// carries the same key and the server replays the first answer for 24
// hours instead of writing again. The server keeps keys per API key.
func idempotencyKey(fingerprint string) string {
	return "dealctl-mcp-" + fingerprint[:40]
}

// fingerprintOf is the hex SHA-256 of the canonical JSON of parts.
func fingerprintOf(parts ...any) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, p := range parts {
		_ = enc.Encode(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}
