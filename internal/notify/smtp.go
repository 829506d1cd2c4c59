package notify

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// tlsMode says what to do about STARTTLS.
type tlsMode int

const (
	tlsOpportunistic tlsMode = iota // use STARTTLS when the server offers it
	tlsRequired                     // fail unless the server offers it
	tlsNever                        // starttls=false: stay in clear text
	tlsImplicit                     // smtps://: TLS from the first byte
)

// SMTPSender mails each notification through one relay. It opens a
// connection per message: the outbox is low volume, and a fresh
// connection cannot be left half-way through a failed conversation.
type SMTPSender struct {
	Addr    string        // host:port of the relay
	From    *mail.Address // header From and envelope sender
	Auth    smtp.Auth     // nil: no AUTH
	Timeout time.Duration // whole conversation; 0 means 30 s
	// TLSConfig, when set, is used for STARTTLS and smtps (tests use it
	// to trust their own certificate); ServerName defaults to the host.
	TLSConfig *tls.Config
	// ReplyTo, when set, gives the Reply-To of a notification (a reply
	// address, internal/replyaddr), or "" for none.
	ReplyTo func(n store.Notification) string

	host string
	mode tlsMode
}

// NewSMTPSender reads smtp://[user:pass@]host[:port]?from=ADDR[&starttls=true|false]
// or smtps://…. Without a port, smtp uses 25 and smtps 465.
func NewSMTPSender(u *url.URL) (*SMTPSender, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("smtp url %q: %s; want smtp://[user:pass@]host[:port]?from=ADDR[&starttls=true]", u.Redacted(), fmt.Sprintf(format, args...))
	}
	s := &SMTPSender{host: u.Hostname()}
	if s.host == "" {
		return nil, bad("no host")
	}
	port := u.Port()
	implicit := strings.EqualFold(u.Scheme, "smtps")
	switch {
	case port != "":
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, bad("bad port %q", port)
		}
	case implicit:
		port = "465"
	default:
		port = "25"
	}
	s.Addr = net.JoinHostPort(s.host, port)
	q := u.Query()
	for k := range q {
		if k != "from" && k != "starttls" {
			return nil, bad("unknown parameter %q", k)
		}
	}
	if q.Get("from") == "" {
		return nil, bad("from= is required")
	}
	from, err := mail.ParseAddress(q.Get("from"))
	if err != nil {
		return nil, bad("from=%q: %v", q.Get("from"), err)
	}
	s.From = from
	if implicit {
		s.mode = tlsImplicit
	}
	if v := q.Get("starttls"); v != "" {
		on, err := strconv.ParseBool(v)
		switch {
		case err != nil:
			return nil, bad("starttls=%q is not true or false", v)
		case implicit:
			return nil, bad("starttls does not apply to smtps")
		case on:
			s.mode = tlsRequired
		default:
			s.mode = tlsNever
		}
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		// net/smtp refuses PLAIN in clear text except to localhost; say
		// so now rather than on every delivery.
		if s.mode == tlsNever && !isLocalhost(s.host) {
			return nil, bad("a password is only sent over TLS; drop starttls=false")
		}
		s.Auth = smtp.PlainAuth("", u.User.Username(), pass, s.host)
	}
	return s, nil
}

// replyHint ends a notification that carries a reply address.
const replyHint = "Reply to this e-mail to answer. Your reply is not posted until you confirm it: you will get a link to check it first.\n"

// isLocalhost matches the hosts net/smtp's PlainAuth accepts without TLS.
func isLocalhost(h string) bool { return h == "localhost" || h == "127.0.0.1" || h == "::1" }

// Send mails n. A recipient or message the relay rejects for good (5xx) is
// a permanent failure; anything else may succeed later.
func (s *SMTPSender) Send(ctx context.Context, n store.Notification) error {
	to, err := mail.ParseAddress(n.Email)
	if err != nil {
		return Permanent(fmt.Errorf("smtp: recipient %q: %v", n.Email, err))
	}
	var replyTo string
	if s.ReplyTo != nil {
		replyTo = s.ReplyTo(n)
	}
	if replyTo != "" {
		n.Body = strings.TrimRight(n.Body, "\n") + "\n\n" + replyHint
	}
	msg := compose(s.From, to, n, time.Now(), replyTo)

	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := s.dial(ctx)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	// net/smtp knows no contexts: a deadline bounds a stalled relay and
	// closing the connection ends the conversation on cancellation.
	dl, _ := ctx.Deadline()
	_ = conn.SetDeadline(dl)
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("smtp: greeting: %w", err)
	}
	defer c.Close()
	if err := s.converse(c, to.Address, msg); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("smtp: %w (%v)", ctx.Err(), err)
		}
		return err
	}
	return nil
}

func (s *SMTPSender) dial(ctx context.Context) (net.Conn, error) {
	d := &net.Dialer{}
	if s.mode == tlsImplicit {
		return (&tls.Dialer{NetDialer: d, Config: s.tlsConfig()}).DialContext(ctx, "tcp", s.Addr)
	}
	return d.DialContext(ctx, "tcp", s.Addr)
}

func (s *SMTPSender) tlsConfig() *tls.Config {
	cfg := &tls.Config{}
	if s.TLSConfig != nil {
		cfg = s.TLSConfig.Clone()
	}
	if cfg.ServerName == "" {
		cfg.ServerName = s.host
	}
	return cfg
}

// converse runs one SMTP transaction on c.
func (s *SMTPSender) converse(c *smtp.Client, rcpt string, msg []byte) error {
	if err := c.Hello("localhost"); err != nil {
		return fmt.Errorf("smtp: EHLO: %w", err)
	}
	if s.mode != tlsImplicit && s.mode != tlsNever {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(s.tlsConfig()); err != nil {
				return fmt.Errorf("smtp: STARTTLS: %w", err)
			}
		} else if s.mode == tlsRequired {
			return errors.New("smtp: the server does not offer STARTTLS and starttls=true requires it")
		}
	}
	if s.Auth != nil {
		if ok, _ := c.Extension("AUTH"); !ok {
			return errors.New("smtp: the server does not offer AUTH but the URL has credentials")
		}
		if err := c.Auth(s.Auth); err != nil {
			return fmt.Errorf("smtp: AUTH: %w", err)
		}
	}
	if err := c.Mail(s.From.Address); err != nil {
		return fmt.Errorf("smtp: MAIL FROM: %w", err)
	}
	if err := c.Rcpt(rcpt); err != nil {
		return rejected(fmt.Errorf("smtp: RCPT TO <%s>: %w", rcpt, err))
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp: DATA: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		w.Close()
		return fmt.Errorf("smtp: DATA: %w", err)
	}
	// The relay accepts or refuses the message when the data ends.
	if err := w.Close(); err != nil {
		return rejected(fmt.Errorf("smtp: end of DATA: %w", err))
	}
	// The message is accepted: a failing QUIT must not cause a resend.
	_ = c.Quit()
	return nil
}

// rejected marks a 5xx reply as permanent; 4xx replies and broken
// connections are worth another try.
func rejected(err error) error {
	var te *textproto.Error
	if errors.As(err, &te) && te.Code >= 500 && te.Code < 600 {
		return Permanent(err)
	}
	return err
}
