package mailin

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/replyaddr"
	"github.com/dealctl/dealctl/internal/service"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// How long things live (docs/mail.md).
const (
	// DefaultHoldFor is how long a reply waits for its confirmation.
	DefaultHoldFor = 7 * 24 * time.Hour
	// DefaultLinkFor is how long the sender's confirmation link works; a
	// colleague may still confirm through the inbox until the hold ends.
	DefaultLinkFor = 24 * time.Hour
)

// Store is what taking replies in reads and writes.
type Store interface {
	DealRequest(ctx context.Context, dealID, requestID string) (store.Deal, store.Request, error)
	Members(ctx context.Context, dealID string) ([]store.Party, []store.Person, error)
	store.HeldReplies
}

// Receiver checks and holds replies, for every door mail comes in by.
type Receiver struct {
	Store  Store
	Signer *replyaddr.Signer
	// Domain is the reply addresses' domain (serve --mail-domain).
	Domain string
	// BaseURL is what confirmation links are built on.
	BaseURL string
	// PutBlob stores an attachment's bytes (the database's blobs, or the
	// object store's), as any file's.
	PutBlob func(ctx context.Context, r io.Reader) (blob.Info, error)
	// Queued wakes the notification worker once a confirmation mail is
	// queued; nil: it finds it on its next round.
	Queued  func()
	Now     func() time.Time
	Log     *slog.Logger
	HoldFor time.Duration // 0: DefaultHoldFor
	LinkFor time.Duration // 0: DefaultLinkFor

	// holding bounds the mails read and parsed at once (each up to
	// MaxMessageBytes in memory, and its attachments again): beyond
	// maxHolding, a mail is answered "try again later".
	gate    sync.Once
	holding chan struct{}
}

// maxHolding is how many mails are taken in at once.
const maxHolding = 4

// Recipient is a reply address checked at RCPT time: the notification it
// names, and the deal, request and person behind it.
type Recipient struct {
	Address string
	target  store.ReplyTarget
	deal    store.Deal
	request store.Request
	person  store.Person
}

func (rc *Receiver) now() time.Time {
	if rc.Now != nil {
		return rc.Now().UTC()
	}
	return time.Now().UTC()
}

func (rc *Receiver) log() *slog.Logger {
	if rc.Log != nil {
		return rc.Log
	}
	return slog.Default()
}

// Recipient checks a recipient address and the envelope sender, before
// any content is read: the address is one of ours, valid, unexpired and
// unused; the deal is not archived; its person may still answer the
// request; and the sender is that person. Anything else is a Refusal.
func (rc *Receiver) Recipient(ctx context.Context, addr, envelopeFrom string) (*Recipient, error) {
	token, ok := replyaddr.TokenOf(addr, rc.Domain)
	if !ok {
		return nil, refuseUnknown
	}
	tok, err := rc.Signer.Verify(token, rc.now())
	switch {
	case errors.Is(err, replyaddr.ErrExpired):
		return nil, refuseExpired
	case err != nil:
		return nil, refuseUnknown
	}
	t, err := rc.Store.ReplyTarget(ctx, tok.NotificationID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, refuseUnknown
	case err != nil:
		return nil, err
	case t.Used:
		return nil, refuseUsed
	}
	deal, req, err := rc.Store.DealRequest(ctx, t.DealID, t.RequestID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, refuseUnknown // the request was deleted
	case err != nil:
		return nil, err
	case deal.Archived:
		return nil, refuseArchived
	}
	parties, people, err := rc.Store.Members(ctx, deal.ID)
	if err != nil {
		return nil, err
	}
	r := &Recipient{Address: addr, target: t, deal: deal, request: req}
	found := false
	for _, p := range people {
		if p.ID == t.PersonID {
			r.person, found = p, true
		}
	}
	// The rule any answer is held to (internal/service), as the person
	// would post it: their seat decides, as with a write key.
	if !found || !r.person.Joined || service.MayAnswer(service.NewActor(deal, parties, people, r.person, api.KeyWrite, nil), req) != nil {
		return nil, refuseCannot
	}
	if envelopeFrom == "" {
		return nil, refuseNoSender
	}
	if !sameAddress(envelopeFrom, r.person.Email) {
		return nil, refuseSender
	}
	return r, nil
}

// sameAddress compares two mail addresses without case (the local part
// is case-sensitive by the RFC, but no mail system treats it so).
func sameAddress(a, b string) bool {
	a = strings.Trim(strings.TrimSpace(a), "<>")
	return a != "" && strings.EqualFold(a, strings.TrimSpace(b))
}

// Hold reads the mail that came for r and holds it: the header From must
// be the person too, the mail must not be an automatic one, and its text
// and attachments must be within limits (Parse). Its attachments are
// stored as blobs; the reply and its confirmation mail are written
// together.
func (rc *Receiver) Hold(ctx context.Context, r *Recipient, raw io.Reader) (store.HeldReply, error) {
	rc.gate.Do(func() { rc.holding = make(chan struct{}, maxHolding) })
	select {
	case rc.holding <- struct{}{}:
		defer func() { <-rc.holding }()
	default:
		return store.HeldReply{}, refuseBusy
	}
	body, err := io.ReadAll(io.LimitReader(raw, MaxMessageBytes+1))
	if err != nil {
		return store.HeldReply{}, err
	}
	if len(body) > MaxMessageBytes {
		return store.HeldReply{}, refuseTooLarge
	}
	if automatic(body) {
		return store.HeldReply{}, refuseAutomatic
	}
	p, err := Parse(bytes.NewReader(body))
	if err != nil {
		return store.HeldReply{}, contentRefusal(err)
	}
	if len(p.From) != 1 || !sameAddress(p.From[0].Address, r.person.Email) {
		return store.HeldReply{}, refuseSender
	}
	now := rc.now()
	h := store.HeldReply{
		ID: store.NewID(), Token: r.target.NotificationID, DealID: r.deal.ID, RequestID: r.request.ID, PersonID: r.person.ID,
		Sender: p.From[0].Address, Subject: termsafe.OneLine(p.Subject, 200), Text: p.Text, State: store.HeldStateHeld,
		CreatedAt: now, ExpiresAt: now.Add(orDefault(rc.HoldFor, DefaultHoldFor)),
		ConfirmExpires: now.Add(orDefault(rc.LinkFor, DefaultLinkFor)),
	}
	for _, a := range p.Attachments {
		info, err := rc.PutBlob(ctx, bytes.NewReader(a.Data))
		if err != nil {
			return store.HeldReply{}, err
		}
		h.Files = append(h.Files, store.HeldFile{Name: a.Name, ContentType: a.ContentType, SHA256: info.SHA256, Size: info.Size})
	}
	secret, hash := newLinkSecret()
	h.ConfirmHash = hash
	link := rc.BaseURL + "/mail/confirm/" + h.ID + "." + secret
	confirm := store.Notification{
		DealID: r.deal.ID, PersonID: r.person.ID, Email: r.person.Email, CreatedAt: now, NextAttemptAt: now,
		Subject: fmt.Sprintf("[%s] Confirm your reply to %s %s", termsafe.OneLine(r.deal.Codename, 120), termsafe.OneLine(r.request.Number, 0), termsafe.OneLine(r.request.Title, 120)),
		Body:    confirmBody(r, link, h),
	}
	if err := rc.Store.HoldReply(ctx, h, confirm); err != nil {
		if errors.Is(err, store.ErrDuplicate) {
			return store.HeldReply{}, refuseUsed // another reply to the address came first
		}
		return store.HeldReply{}, err
	}
	rc.log().Info("reply by e-mail held", "held_reply_id", h.ID, "deal_id", h.DealID, "request_id", h.RequestID,
		"person_id", h.PersonID, "files", len(h.Files), "from_html", p.FromHTML)
	if rc.Queued != nil {
		rc.Queued()
	}
	return h, nil
}

// confirmBody is the confirmation mail. It does not repeat the reply:
// the page shows exactly what will be posted.
func confirmBody(r *Recipient, link string, h store.HeldReply) string {
	return fmt.Sprintf(`Your reply by e-mail to %s %s (%s) was received and is held: it is not posted yet.

To see exactly what will be posted, and post it or discard it, open this link
(it works once, until %s):

%s

If you did not send this reply, ignore this mail: nothing is posted unless it
is confirmed. A colleague on your side may also confirm it in dealctl
(dealctl inbox) until %s.
`, termsafe.OneLine(r.request.Number, 0), termsafe.OneLine(r.request.Title, 120), termsafe.OneLine(r.deal.Name, 120),
		h.ConfirmExpires.Format("2 Jan 2006 15:04 MST"), link, h.ExpiresAt.Format("2 Jan 2006 15:04 MST"))
}

// newLinkSecret is a confirmation link's secret and the hash kept of it.
func newLinkSecret() (secret, hash string) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	secret = base64.RawURLEncoding.EncodeToString(b[:])
	return secret, hashSecret(secret)
}

func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// automatic tells an automatic mail (RFC 3834's Auto-Submitted, or the
// older Precedence and X-Autoreply marks) from a person's reply.
func automatic(raw []byte) bool {
	end := bytes.Index(raw, []byte("\r\n\r\n"))
	if end < 0 {
		end = bytes.Index(raw, []byte("\n\n"))
	}
	if end < 0 {
		end = len(raw)
	}
	for _, line := range strings.Split(strings.ToLower(string(raw[:end])), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "auto-submitted:") && strings.TrimSpace(strings.TrimPrefix(line, "auto-submitted:")) != "no",
			strings.HasPrefix(line, "precedence:") && (strings.Contains(line, "bulk") || strings.Contains(line, "junk") || strings.Contains(line, "list")),
			strings.HasPrefix(line, "x-autoreply:"), strings.HasPrefix(line, "x-autorespond:"):
			return true
		}
	}
	return false
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
