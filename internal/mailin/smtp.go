package mailin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/emersion/go-smtp"
)

// sessionTimeout bounds the database work of one SMTP command.
const sessionTimeout = 2 * time.Minute

// NewSMTPServer is serve --mail-in's listener: it takes mail for reply
// addresses only, refusing at RCPT (the address, its expiry and use, the
// sender) before any content comes, then at the end of DATA (the header
// From, automatic replies, size and content limits). One recipient per
// mail: a second RCPT is told to wait (452), and the sending server sends
// it again apart. No AUTH and no relaying: the server is an MX, not a
// submission server.
func NewSMTPServer(rc *Receiver) *smtp.Server {
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{rc: rc, remote: c.Conn().RemoteAddr().String()}, nil
	}))
	s.Domain = rc.Domain
	s.MaxMessageBytes = MaxMessageBytes
	s.MaxRecipients = 1
	s.ReadTimeout = time.Minute
	s.WriteTimeout = time.Minute
	s.ErrorLog = smtpLog{rc.log()}
	return s
}

// session is one SMTP conversation's state.
type session struct {
	rc     *Receiver
	remote string
	from   string
	rcpt   *Recipient
}

func (s *session) Reset()        { s.from, s.rcpt = "", nil }
func (s *session) Logout() error { return nil }

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	r, err := s.rc.Recipient(ctx, to, s.from)
	if err != nil {
		return s.refuse("RCPT", err)
	}
	s.rcpt = r
	return nil
}

func (s *session) Data(r io.Reader) error {
	if s.rcpt == nil {
		return &smtp.SMTPError{Code: 503, EnhancedCode: smtp.EnhancedCode{5, 5, 1}, Message: "no valid recipient"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	if _, err := s.rc.Hold(ctx, s.rcpt, r); err != nil {
		_, _ = io.Copy(io.Discard, r)
		switch {
		case errors.Is(err, smtp.ErrDataTooLarge):
			err = refuseTooLarge // the reader stopped at MaxMessageBytes
		case errors.Is(err, smtp.ErrTooLongLine):
			err = refuseLongLine
		}
		return s.refuse("DATA", err)
	}
	return nil
}

// refuse answers a refusal with its SMTP reply and logs it; an
// unexpected error is logged in full and answered as temporary (451).
func (s *session) refuse(at string, err error) error {
	ref := asRefusal(err)
	attrs := []any{"at", at, "reason", ref.Reason, "remote", s.remote, "mail_from", s.from}
	if s.rcpt != nil {
		attrs = append(attrs, "deal_id", s.rcpt.deal.ID, "request_id", s.rcpt.request.ID)
	}
	if ref == refuseBusy {
		s.rc.log().Error("reply by e-mail not taken", append(attrs, "err", err.Error())...)
	} else {
		s.rc.log().Info("reply by e-mail refused", attrs...)
	}
	return &smtp.SMTPError{Code: ref.Code, EnhancedCode: smtp.EnhancedCode(ref.Enhanced), Message: ref.Message}
}

// smtpLog sends go-smtp's own complaints (broken connections) to the log.
type smtpLog struct{ l *slog.Logger }

func (l smtpLog) Printf(format string, v ...any) { l.l.Warn("mail-in: " + fmt.Sprintf(format, v...)) }
func (l smtpLog) Println(v ...any)               { l.l.Warn("mail-in: " + fmt.Sprint(v...)) }
