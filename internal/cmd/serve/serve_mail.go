package serve

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/mailin"
	"github.com/dealctl/dealctl/internal/notify"
	"github.com/dealctl/dealctl/internal/replyaddr"
	"github.com/dealctl/dealctl/internal/service"
	"github.com/dealctl/dealctl/internal/signing"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// Replies by e-mail (docs/mail.md): --mail-domain gives notifications a
// reply address on that domain and turns the confirmation page on;
// --mail-in listens for those replies over SMTP; --mail-in-secret opens
// the inbound webhook for providers that forward mail as HTTP.

// checkMailFlags refuses a mail door without the domain its addresses
// are on.
func checkMailFlags(o *serveOptions) error {
	o.mailDomain = strings.TrimSpace(o.mailDomain)
	if o.mailDomain == "" && (o.mailIn != "" || o.mailInSecret != "") {
		return cmdutil.UsageErrorf("%s and --mail-in-secret take replies to reply addresses: give their domain with --mail-domain (docs/mail.md)", o.origins.Of("mail-in"))
	}
	if strings.ContainsAny(o.mailDomain, "@/ ") {
		return cmdutil.UsageErrorf("%s %q: give a domain, like reply.deals.example.com", o.origins.Of("mail-domain"), o.mailDomain)
	}
	if o.mailInSecret != "" && len(o.mailInSecret) < 16 {
		return cmdutil.UsageErrorf("--mail-in-secret must be at least 16 characters (DEALCTL_MAIL_IN_SECRET)")
	}
	return nil
}

// mailDoors is what serve runs for replies by e-mail.
type mailDoors struct {
	receiver *mailin.Receiver
	web      *mailin.Web
	smtp     interface{ Close() error }
}

// startMail builds the receiver and the page, and starts the SMTP
// listener when --mail-in asks. Nil without --mail-domain.
func startMail(ctx context.Context, o *serveOptions, db *sqlstore.DB, objects *blob.S3, key *signing.Key, baseURL string,
	queued func(), logger *slog.Logger) (*mailDoors, error) {
	if o.mailDomain == "" {
		return nil, nil
	}
	put := db.PutBlob
	if objects != nil {
		put = func(ctx context.Context, r io.Reader) (blob.Info, error) {
			info, err := objects.Put(ctx, r)
			if err == nil {
				err = db.RecordObjectBlob(ctx, info)
			}
			return info, err
		}
	}
	rc := &mailin.Receiver{Store: db, Signer: replyaddr.NewSigner(key), Domain: o.mailDomain, BaseURL: baseURL,
		PutBlob: put, Queued: queued, Log: logger}
	poster := mailin.ServicePoster{Service: service.New(db, queued), Store: db}
	d := &mailDoors{receiver: rc, web: &mailin.Web{Receiver: rc, Poster: poster, InboundSecret: o.mailInSecret, FormKey: key.For("confirm-form")}}
	if o.mailIn != "" {
		ln, err := listen(o.origins.Of("mail-in"), o.mailIn)
		if err != nil {
			return nil, err
		}
		s := mailin.NewSMTPServer(rc)
		go func() {
			if err := s.Serve(ln); err != nil && !errors.Is(err, net.ErrClosed) && ctx.Err() == nil {
				logger.Error("mail-in stopped", "err", err)
			}
		}()
		d.smtp = s
		logger.Info("taking replies by e-mail", "smtp", ln.Addr().String(), "domain", o.mailDomain, "webhook", o.mailInSecret != "")
	} else {
		logger.Info("reply addresses on", "domain", o.mailDomain, "webhook", o.mailInSecret != "")
	}
	return d, nil
}

// handler puts the mail pages beside the API.
func (d *mailDoors) handler(api http.Handler) http.Handler {
	if d == nil {
		return api
	}
	mux := http.NewServeMux()
	mux.Handle("/mail/", d.web.Handler())
	mux.Handle("/", api)
	return mux
}

func (d *mailDoors) close() {
	if d != nil && d.smtp != nil {
		d.smtp.Close()
	}
}

// replyAddresses gives SMTP notifications their Reply-To.
func replyAddresses(sender notify.Sender, o *serveOptions, key *signing.Key) {
	if s, ok := sender.(*notify.SMTPSender); ok && o.mailDomain != "" {
		s.ReplyTo = replyaddr.NewSigner(key).ForNotifications(o.mailDomain, replyaddr.DefaultTTL)
	}
}
