package mailin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/smtp"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/mailin"
	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/replyaddr"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/service"
	"github.com/dealctl/dealctl/internal/signing"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/syncbuf"
	"github.com/dealctl/dealctl/internal/world"
)

const (
	domain        = "reply.deals.example"
	inboundSecret = "inbound-secret-0123456789"
)

// env is a real server on loopback: the API, the mail pages and the SMTP
// listener, on a seeded SQLite file, with a clock the tests move.
type env struct {
	db       *sqlstore.DB
	ids      *world.Result
	clk      *clock
	baseURL  string
	smtpAddr string
	signer   *replyaddr.Signer
	logs     *syncbuf.Buffer
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvOn(t, filepath.Join(t.TempDir(), "mail.db"))
}

// newEnvOn is newEnv on the database dsn names (a PostgreSQL one, say).
func newEnvOn(t *testing.T, dsn string) *env {
	t.Helper()
	ctx := context.Background()
	e := &env{clk: &clock{now: time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)}, logs: &syncbuf.Buffer{}}
	db, err := sqlstore.OpenWith(ctx, dsn, sqlstore.OpenOptions{Now: e.clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e.db = db
	if e.ids, err = world.ApplyFile(ctx, db, "testdata/world.yaml", e.clk.Now()); err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(e.logs, nil))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e.baseURL = "http://" + ln.Addr().String()
	srv, err := server.New(ctx, server.Config{Store: db, BaseURL: e.baseURL, Now: e.clk.Now, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	key, err := signing.Load(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	e.signer = replyaddr.NewSigner(key)
	rc := &mailin.Receiver{Store: db, Signer: e.signer, Domain: domain, BaseURL: e.baseURL, PutBlob: db.PutBlob, Now: e.clk.Now, Log: logger}
	web := &mailin.Web{Receiver: rc, Poster: mailin.ServicePoster{Service: service.New(db, nil), Store: db, Now: e.clk.Now}, InboundSecret: inboundSecret, FormKey: key.For("confirm-form")}
	mux := http.NewServeMux()
	mux.Handle("/mail/", web.Handler())
	mux.Handle("/", srv)
	hs := &http.Server{Handler: mux}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })

	sln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e.smtpAddr = sln.Addr().String()
	s := mailin.NewSMTPServer(rc)
	go s.Serve(sln)
	t.Cleanup(func() { s.Close() })
	return e
}

// key is the secret of a key of the test world.
var keys = map[string]string{
	"olivia": "dlk_oliviaWr000000000000000000000000",
	"elena":  "dlk_elenaWri000000000000000000000000",
	"ben":    "dlk_benWrite000000000000000000000000",
	"bianca": "dlk_biancaWr000000000000000000000000",
}

// api calls the API as who and decodes the answer into out (when not nil).
func (e *env) api(t *testing.T, who, method, path string, body any, out any) int {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, e.baseURL+path, r)
	req.Header.Set("Authorization", "Bearer "+keys[who])
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return res.StatusCode
}

func (e *env) requestPath(deal, number string) string {
	return "/api/v1/deals/" + e.ids.Deals[deal] + "/requests/" + e.ids.Requests[deal+"/"+number]
}

// ask posts olivia's question on the request and returns the reply
// address of each notification it queued, by recipient.
func (e *env) ask(t *testing.T, deal, number string) map[string]string {
	t.Helper()
	var m struct{ ID string }
	if code := e.api(t, "olivia", "POST", e.requestPath(deal, number)+"/messages", map[string]any{"kind": "question", "text": "Please send them."}, &m); code != http.StatusCreated {
		t.Fatalf("posting the question: %d", code)
	}
	ns, err := e.db.Notifications(context.Background(), e.ids.Deals[deal])
	if err != nil {
		t.Fatal(err)
	}
	replyTo := e.signer.ForNotifications(domain, replyaddr.DefaultTTL)
	out := map[string]string{}
	for _, n := range ns {
		if n.MessageID == m.ID {
			out[n.Email] = replyTo(n)
		}
	}
	if out["elena@acme.example"] == "" {
		t.Fatalf("no notification to elena: %+v", ns)
	}
	return out
}

// send mails msg from envelope sender from to rcpt over SMTP with Go's
// net/smtp client; the error is the server's reply when it refused.
func (e *env) send(from, rcpt, msg string) error {
	return smtp.SendMail(e.smtpAddr, nil, from, []string{rcpt}, []byte(strings.ReplaceAll(msg, "\n", "\r\n")))
}

// smtpCode is the SMTP reply code of a refusal, 0 for none.
func smtpCode(err error) int {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

// reply is a plain text reply by from to the address.
func reply(from, to, text string) string {
	return fmt.Sprintf("From: Elena Rossi <%s>\nTo: %s\nSubject: Re: [Falcon] 2.3 Audited accounts 2025: new question\nDate: Mon, 1 Mar 2027 09:30:00 +0000\nMessage-ID: <r1@acme.example>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n%s\n", from, to, text)
}

// confirmLink is the link of the newest confirmation mail to email.
func (e *env) confirmLink(t *testing.T, deal, email string) string {
	t.Helper()
	ns, err := e.db.Notifications(context.Background(), e.ids.Deals[deal])
	if err != nil {
		t.Fatal(err)
	}
	for i := len(ns) - 1; i >= 0; i-- {
		if ns[i].Kind == store.NotifyReplyConfirm && ns[i].Email == email {
			if m := regexp.MustCompile(`http://\S+/mail/confirm/\S+`).FindString(ns[i].Body); m != "" {
				return m
			}
		}
	}
	t.Fatalf("no confirmation mail to %s", email)
	return ""
}

// browser is an HTTP client with cookies, as a person's browser.
func browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar}
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// open fetches the page and returns its status, body and form token.
func open(t *testing.T, c *http.Client, link string) (int, string, string) {
	t.Helper()
	res, err := c.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	token := ""
	if m := csrfField.FindStringSubmatch(string(b)); m != nil {
		token = m[1]
	}
	return res.StatusCode, string(b), token
}

// press submits the page's form with the button action.
func press(t *testing.T, c *http.Client, link, csrf, action string) (int, string) {
	t.Helper()
	res, err := c.PostForm(link, url.Values{"csrf": {csrf}, "action": {action}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// messages lists the request's conversation as who sees it.
func (e *env) messages(t *testing.T, who, deal, number string) []apiMessage {
	t.Helper()
	var out []apiMessage
	if code := e.api(t, who, "GET", e.requestPath(deal, number)+"/messages", nil, &out); code != http.StatusOK {
		t.Fatalf("messages: %d", code)
	}
	return out
}

type apiMessage struct {
	ID       string
	Kind     string
	Source   string
	Format   string
	Text     string
	OnBehalf bool `json:"on_behalf"`
	Author   struct {
		Name  *string
		Email string
	}
	Files []struct {
		Name         *string
		Size         *int64
		Downloadable bool
	}
}

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
