package mailin

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// The confirmation page (docs/mail.md, "Confirming a reply"). The link
// names the held reply and carries a secret of which only the hash is
// kept; it acts once (a decided reply is not held any more) and until
// ConfirmExpires. The form is safe against cross-site forgery three ways:
// it is POST only; its hidden token is an HMAC of a random cookie set
// with the page (SameSite=Strict, HttpOnly) and of the reply, so a form
// posted from elsewhere has neither; and a POST whose Origin is not this
// server's is refused. The page has no script, and its policy allows
// none.

const formCookie = "dealctl_confirm"

// pageHeaders keep the page from being framed, cached, sniffed, scripted
// or leaking its link in a Referer to another site.
func pageHeaders(rw http.ResponseWriter) {
	h := rw.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	// same-origin, not no-referrer: under no-referrer a browser's form
	// POST says "Origin: null", which the Origin check must refuse; no
	// other site is ever sent the link in a Referer either way.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
}

// pageData is what the page shows.
type pageData struct {
	Title    string
	Heading  string
	Note     string
	Deal     string
	Number   string
	ReqTitle string
	Sender   string
	Subject  string
	Text     string
	Files    []pageFile
	Form     bool
	CSRF     string
}

type pageFile struct{ Name, Size string }

// loaded is a link checked: its reply and what the page names.
type loaded struct {
	held    store.HeldReply
	deal    store.Deal
	request store.Request
	person  store.Person
}

// errLink: the link is not one this server gave (or its reply is gone).
var (
	errLink        = errors.New("this link is not valid")
	errLinkExpired = errors.New("this link has expired")
)

// load checks the link's secret against the reply's hash, then reads
// what the page shows.
func (w *Web) load(ctx context.Context, link string) (loaded, error) {
	id, secret, ok := strings.Cut(link, ".")
	if !ok || id == "" || secret == "" {
		return loaded{}, errLink
	}
	h, err := w.Receiver.Store.HeldReply(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return loaded{}, errLink
	}
	if err != nil {
		return loaded{}, err
	}
	if subtle.ConstantTimeCompare([]byte(hashSecret(secret)), []byte(h.ConfirmHash)) != 1 {
		return loaded{}, errLink
	}
	l := loaded{held: h}
	l.deal, l.request, err = w.Receiver.Store.DealRequest(ctx, h.DealID, h.RequestID)
	if errors.Is(err, store.ErrNotFound) {
		return l, errLink // the request was deleted since: nothing to post to
	}
	if err != nil {
		return l, err
	}
	_, people, err := w.Receiver.Store.Members(ctx, h.DealID)
	if err != nil {
		return l, err
	}
	for _, p := range people {
		if p.ID == h.PersonID {
			l.person = p
		}
	}
	if h.State == store.HeldStateHeld && !w.Receiver.now().Before(h.ConfirmExpires) {
		return l, errLinkExpired
	}
	return l, nil
}

func (w *Web) confirmPage(rw http.ResponseWriter, r *http.Request) {
	l, err := w.load(r.Context(), r.PathValue("link"))
	if err != nil {
		w.linkProblem(rw, err)
		return
	}
	if l.held.State != store.HeldStateHeld {
		w.decidedPage(rw, l)
		return
	}
	nonce := randomToken()
	http.SetCookie(rw, &http.Cookie{Name: formCookie, Value: nonce, Path: "/mail/confirm/", HttpOnly: true,
		Secure: strings.HasPrefix(w.Receiver.BaseURL, "https://"), SameSite: http.SameSiteStrictMode,
		Expires: l.held.ConfirmExpires})
	d := w.describe(l)
	d.Title = "Confirm your reply"
	d.Heading = "Post this reply to " + d.Number + " as " + d.Sender + "?"
	d.Form, d.CSRF = true, w.formToken(nonce, l.held.ID)
	render(rw, http.StatusOK, d)
}

func (w *Web) confirmAction(rw http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(rw, r.Body, 4<<10)
	if err := r.ParseForm(); err != nil {
		w.refusedForm(rw)
		return
	}
	if !sameOrigin(r.Header.Get("Origin"), w.Receiver.BaseURL) {
		w.refusedForm(rw)
		return
	}
	l, err := w.load(r.Context(), r.PathValue("link"))
	if err != nil {
		w.linkProblem(rw, err)
		return
	}
	c, cerr := r.Cookie(formCookie)
	if cerr != nil || subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(w.formToken(c.Value, l.held.ID))) != 1 {
		w.refusedForm(rw)
		return
	}
	action := r.PostForm.Get("action")
	if action != "post" && action != "discard" {
		w.refusedForm(rw)
		return
	}
	if l.held.State != store.HeldStateHeld {
		w.decidedPage(rw, l)
		return
	}
	if _, err := Decide(r.Context(), w.Receiver.Store, w.Poster, l.held, l.person, action == "post", w.Receiver.now()); err != nil {
		if errors.Is(err, store.ErrNotHeld) {
			l.held, _ = w.Receiver.Store.HeldReply(r.Context(), l.held.ID)
			w.decidedPage(rw, l)
			return
		}
		if errors.Is(err, ErrSenderCannotAnswer) {
			render(rw, http.StatusForbidden, pageData{Title: "Not posted", Heading: "The reply cannot be posted",
				Note: "Nothing was posted: you may no longer answer this request (taken off the deal, or no longer an editor)."})
			return
		}
		w.Receiver.log().Error("confirming a reply by e-mail", "held_reply_id", l.held.ID, "err", err.Error())
		render(rw, http.StatusServiceUnavailable, pageData{Title: "Not posted", Heading: "The reply could not be posted now",
			Note: "Nothing was posted. Open the link again in a minute to try again."})
		return
	}
	d := w.describe(l)
	if action == "post" {
		d.Title, d.Heading = "Posted", "Your reply is posted to "+d.Number
		d.Note = "It is in the request's conversation now, and the other side is notified."
	} else {
		d.Title, d.Heading = "Discarded", "Your reply was discarded"
		d.Note = "Nothing was posted. You can answer in dealctl, or reply to a newer notification."
	}
	render(rw, http.StatusOK, d)
}

// describe is what every page about a reply shows; every value is text
// from outside, escaped by html/template and made one line or visible
// (termsafe) as the terminal views make it.
func (w *Web) describe(l loaded) pageData {
	name := l.held.Sender // the person, taken off the deal since, is not in the deal's people
	if l.person.Email != "" {
		name = l.person.Email
	}
	if l.person.Name != nil && *l.person.Name != "" {
		name = *l.person.Name
	}
	d := pageData{Deal: termsafe.OneLine(l.deal.Name, 120), Number: termsafe.OneLine(l.request.Number, 0),
		ReqTitle: termsafe.OneLine(l.request.Title, 200), Sender: termsafe.OneLine(name, 120),
		Subject: termsafe.OneLine(l.held.Subject, 200), Text: termsafe.Text(l.held.Text)}
	for _, f := range l.held.Files {
		d.Files = append(d.Files, pageFile{Name: termsafe.OneLine(f.Name, 0), Size: display.HumanSize(f.Size)})
	}
	return d
}

func (w *Web) decidedPage(rw http.ResponseWriter, l loaded) {
	d := w.describe(l)
	d.Title = "Already decided"
	switch l.held.State {
	case store.HeldStatePosted:
		d.Heading = "This reply was posted already"
	default:
		d.Heading = "This reply was discarded already"
	}
	if l.held.OnBehalf {
		d.Note = "A colleague on your side decided it."
	}
	d.Note = strings.TrimSpace(d.Note + " The link works once.")
	render(rw, http.StatusGone, d)
}

func (w *Web) linkProblem(rw http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, errLinkExpired):
		render(rw, http.StatusGone, pageData{Title: "Link expired", Heading: "This link has expired",
			Note: "Nothing was posted. A colleague on your side may still confirm the reply in dealctl (dealctl inbox), or you can answer in dealctl."})
	case errors.Is(err, errLink):
		render(rw, http.StatusNotFound, pageData{Title: "Not found", Heading: "This link is not valid", Note: "Check that the whole link was opened."})
	default:
		w.Receiver.log().Error("confirmation page", "err", err.Error())
		render(rw, http.StatusServiceUnavailable, pageData{Title: "Unavailable", Heading: "The page cannot be shown now", Note: "Try again in a minute."})
	}
}

func (w *Web) refusedForm(rw http.ResponseWriter) {
	render(rw, http.StatusForbidden, pageData{Title: "Refused", Heading: "The form was not accepted",
		Note: "Nothing was posted. Open the link from your mail again and use its buttons."})
}

// formToken binds the form to the cookie set with it and to the reply.
func (w *Web) formToken(nonce, heldID string) string {
	return base64.RawURLEncoding.EncodeToString(w.FormKey.MAC([]byte(nonce + "|" + heldID)))
}

// sameOrigin: a POST names no Origin (older browsers, curl) or this
// server's.
func sameOrigin(origin, baseURL string) bool {
	if origin == "" {
		return true
	}
	o, err1 := url.Parse(origin)
	b, err2 := url.Parse(baseURL)
	return err1 == nil && err2 == nil && strings.EqualFold(o.Scheme, b.Scheme) && strings.EqualFold(o.Host, b.Host)
}

func randomToken() string {
	var b [18]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func render(rw http.ResponseWriter, status int, d pageData) {
	pageHeaders(rw)
	rw.WriteHeader(status)
	_ = page.Execute(rw, d)
}

var page = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · dealctl</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; color: #1d2330; }
h1 { font-size: 1.35rem; margin-bottom: .25rem; }
.where { color: #555e6e; margin-top: 0; }
pre { white-space: pre-wrap; word-wrap: break-word; background: #f4f6f9; border: 1px solid #d6dbe3; border-radius: 6px; padding: 1rem; font: 15px/1.5 ui-monospace, monospace; }
ul.files { padding-left: 1.2rem; }
form { display: flex; gap: .75rem; margin-top: 1.5rem; }
button { font-size: 1rem; padding: .55rem 1.3rem; border-radius: 6px; border: 1px solid #8a93a3; background: #fff; cursor: pointer; }
button.post { background: #1f5fbf; border-color: #1f5fbf; color: #fff; }
.note { color: #555e6e; }
</style>
</head>
<body>
<h1>{{.Heading}}</h1>
{{if .Number}}<p class="where">{{.Number}} {{.ReqTitle}} · {{.Deal}}</p>{{end}}
{{if .Form}}<p>This is exactly what will be posted, as {{.Sender}}, from your e-mail{{if .Subject}} “{{.Subject}}”{{end}}:</p>{{end}}
{{if .Text}}<pre>{{.Text}}</pre>{{end}}
{{if .Files}}<p>Attached files:</p>
<ul class="files">{{range .Files}}<li>{{.Name}} ({{.Size}})</li>{{end}}</ul>{{end}}
{{if .Form}}<form method="post">
<input type="hidden" name="csrf" value="{{.CSRF}}">
<button class="post" type="submit" name="action" value="post">Post</button>
<button type="submit" name="action" value="discard">Discard</button>
</form>{{end}}
{{if .Note}}<p class="note">{{.Note}}</p>{{end}}
</body>
</html>
`))
