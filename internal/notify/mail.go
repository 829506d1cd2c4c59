package notify

import (
	"bytes"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// maxSubject bounds the subject in runes; SMTP limits lines to 998 bytes and
// mail clients show far less.
const maxSubject = 200

// compose renders n as an RFC 5322 message with CRLF line ends. The body
// is quoted-printable so that UTF-8 text and long lines pass any relay,
// with or without 8BITMIME. Dot-stuffing is left to net/smtp's DATA writer.
// replyTo, when not "", is the Reply-To: the address a reply to n goes to
// (docs/mail.md).
func compose(from, to *mail.Address, n store.Notification, now time.Time, replyTo string) []byte {
	n = cleaned(n)
	var b bytes.Buffer
	header := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	header("From", from.String())
	header("To", to.String())
	if replyTo != "" {
		header("Reply-To", replyTo)
	}
	header("Subject", subject(n.Subject))
	header("Date", now.Format(time.RFC1123Z))
	// The id is the notification's, so a retry after a lost reply carries
	// the same Message-ID and clients can fold the duplicate.
	header("Message-ID", "<"+n.ID+"@"+domain(from.Address)+">")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	// RFC 3834: keeps vacation responders from answering into the deal.
	header("Auto-Submitted", "auto-generated")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	qp.Write([]byte(n.Body)) // writes to a bytes.Buffer do not fail
	qp.Close()
	if !bytes.HasSuffix(b.Bytes(), []byte("\r\n")) {
		b.WriteString("\r\n")
	}
	return b.Bytes()
}

// subject makes s a safe header value: one line (no CR or LF, so no
// header injection; controls shown visibly), bounded, and RFC 2047
// encoded when it is not plain ASCII (the encoder leaves ASCII alone).
func subject(s string) string {
	s = termsafe.OneLine(s, 0)
	if utf8.RuneCountInString(s) > maxSubject {
		// "..." rather than an ellipsis keeps an ASCII subject unencoded.
		s = string([]rune(s)[:maxSubject-3]) + "..."
	}
	enc := mime.QEncoding.Encode("utf-8", s)
	// The encoder splits long text into encoded-words joined by spaces;
	// folding there keeps each header line short.
	return strings.ReplaceAll(enc, "?= =?", "?=\r\n =?")
}

// domain is the part of addr after the @, for Message-IDs.
func domain(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 && i < len(addr)-1 {
		return addr[i+1:]
	}
	return "dealctl.invalid"
}
