package mailin

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"path"
	"strings"
	"unicode/utf8"

	_ "github.com/emersion/go-message/charset" // text in the charsets mail still uses (ISO-8859-x, Windows-125x, …)
	"github.com/emersion/go-message/mail"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// Limits of a reply by e-mail (docs/mail.md). A mail over MaxMessageBytes
// is refused whole (SMTP's SIZE, 552); so is one with more than
// MaxAttachments files or text over the API's limit on a message's text:
// cutting would post something the sender did not write.
const (
	MaxMessageBytes = 25 << 20
	MaxAttachments  = 10
	maxNameRunes    = 255
)

// Reasons a mail is refused after it came; each reads as the sentence the
// sender's bounce shows.
var (
	ErrNoText             = errors.New("the reply has no text of its own above the quoted message")
	ErrTextTooLong        = fmt.Errorf("the reply's text is over %d characters", api.MaxBodyLen)
	ErrTooManyAttachments = fmt.Errorf("the reply has more than %d attachments", MaxAttachments)
	ErrTooLarge           = fmt.Errorf("the mail is over %d MiB", MaxMessageBytes>>20)
	ErrUnreadable         = errors.New("the mail cannot be read as MIME")
)

// Parsed is what a reply says.
type Parsed struct {
	From        []*mail.Address // the header From (one address, in practice)
	Subject     string
	Text        string // the reply's own words (Clean), from the text part or the HTML made text
	FromHTML    bool   // the mail had no text part
	Attachments []Attachment
}

// Attachment is a file that came with a reply.
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// Parse reads a whole mail (headers and body, as SMTP's DATA or a
// provider's raw MIME gives it), at most MaxMessageBytes.
func Parse(r io.Reader) (Parsed, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxMessageBytes+1))
	if err != nil {
		return Parsed{}, err
	}
	if len(raw) > MaxMessageBytes {
		return Parsed{}, ErrTooLarge
	}
	mr, err := mail.CreateReader(bytes.NewReader(raw))
	if mr == nil {
		return Parsed{}, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	defer mr.Close()
	var p Parsed
	p.From, _ = mr.Header.AddressList("From")
	p.Subject, _ = mr.Header.Subject()
	var plain, htmlText string
	havePlain, haveHTML := false, false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if part == nil {
			return Parsed{}, fmt.Errorf("%w: %v", ErrUnreadable, err)
		}
		body, err := io.ReadAll(part.Body)
		if err != nil {
			return Parsed{}, fmt.Errorf("%w: %v", ErrUnreadable, err)
		}
		switch h := part.Header.(type) {
		case *mail.InlineHeader:
			t, _, _ := h.ContentType()
			switch {
			case t == "text/plain" && !havePlain:
				plain, havePlain = string(body), true
			case t == "text/html" && !haveHTML:
				htmlText, haveHTML = HTMLText(bytes.NewReader(body)), true
			case strings.HasPrefix(t, "text/"):
				// another text part (a second body, calendar text): not the reply
			default:
				// An inline image with a Content-ID is part of the HTML
				// (a signature's logo), not a file sent.
				if h.Get("Content-Id") == "" {
					p.Attachments = append(p.Attachments, attachment(len(p.Attachments), h.Get("Content-Type"), "", body))
				}
			}
		case *mail.AttachmentHeader:
			name, _ := h.Filename()
			if len(body) > 0 {
				p.Attachments = append(p.Attachments, attachment(len(p.Attachments), h.Get("Content-Type"), name, body))
			}
		}
	}
	switch {
	case havePlain:
		p.Text = Clean(plain)
	case haveHTML:
		p.Text, p.FromHTML = Clean(htmlText), true
	}
	switch {
	case len(p.Attachments) > MaxAttachments:
		return p, ErrTooManyAttachments
	case !utf8.ValidString(p.Text):
		p.Text = strings.ToValidUTF8(p.Text, "\uFFFD")
	}
	p.Text = strings.ReplaceAll(p.Text, "\x00", "")
	if api.TextLen(p.Text) > api.MaxBodyLen {
		return p, ErrTextTooLong
	}
	if strings.TrimSpace(p.Text) == "" && len(p.Attachments) == 0 {
		return p, ErrNoText
	}
	return p, nil
}

// attachment names a file safely: a base name on one line (no path, no
// controls), bounded; a file sent without a name is named by its position
// and type.
func attachment(i int, contentType, name string, data []byte) Attachment {
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err != nil || mediaType == "" {
		mediaType = "application/octet-stream"
	}
	name = strings.ReplaceAll(name, "\\", "/")
	name = termsafe.OneLine(path.Base(strings.TrimSpace(name)), 0)
	if name == "" || name == "." || name == "/" || name == ".." {
		ext := ""
		if exts, _ := mime.ExtensionsByType(mediaType); len(exts) > 0 {
			ext = exts[0]
		}
		name = fmt.Sprintf("attachment-%d%s", i+1, ext)
	}
	if utf8.RuneCountInString(name) > maxNameRunes {
		name = string([]rune(name)[:maxNameRunes])
	}
	return Attachment{Name: name, ContentType: mediaType, Data: data}
}

// readAllLimited reads a whole mail of at most MaxMessageBytes.
func readAllLimited(r io.Reader) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxMessageBytes+1))
	if err == nil && len(raw) > MaxMessageBytes {
		err = ErrTooLarge
	}
	return raw, err
}

// fromHeaderAddress is the address of a raw mail's From header, or "".
func fromHeaderAddress(raw []byte) string {
	mr, _ := mail.CreateReader(bytes.NewReader(raw))
	if mr == nil {
		return ""
	}
	defer mr.Close()
	from, _ := mr.Header.AddressList("From")
	if len(from) != 1 {
		return ""
	}
	return from[0].Address
}
