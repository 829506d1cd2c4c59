package notify

import (
	"bufio"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
)

// smtpServer is a loopback SMTP relay that speaks just enough of RFC 5321
// for net/smtp: EHLO/HELO, optional STARTTLS and AUTH PLAIN, MAIL, RCPT,
// DATA, RSET, NOOP, QUIT. It records what it accepts.
type smtpServer struct {
	Addr string
	TLS  *tls.Config // non-nil: offer STARTTLS
	Auth bool        // offer AUTH PLAIN

	mu        sync.Mutex
	failData  int    // answer 451 at the end of DATA this many more times
	rejectRcp string // answer 550 to RCPT of this address
	msgs      []smtpMessage
	attempts  int      // DATA transactions that reached the end, accepted or not
	logins    []string // "user:pass" of AUTH PLAIN
	tlsUsed   []bool   // per accepted message: was the session under TLS
}

type smtpMessage struct {
	From string
	To   []string
	Data string // as received, dot-stuffing undone
}

func newSMTPServer(t *testing.T) *smtpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &smtpServer{Addr: ln.Addr().String()}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { s.serve(c) })
		}
	})
	return s
}

// FailNext makes the next n deliveries end in 451 (try again later).
func (s *smtpServer) FailNext(n int) { s.mu.Lock(); s.failData = n; s.mu.Unlock() }

func (s *smtpServer) Messages() []smtpMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]smtpMessage(nil), s.msgs...)
}

func (s *smtpServer) Attempts() int { s.mu.Lock(); defer s.mu.Unlock(); return s.attempts }

// URL is the smtp:// URL of the server with the given extra query.
func (s *smtpServer) URL(query string) string {
	return "smtp://" + s.Addr + "?from=" + "dealctl@example.com" + query
}

func (s *smtpServer) serve(conn net.Conn) {
	defer conn.Close()
	r, w := bufio.NewReader(conn), bufio.NewWriter(conn)
	reply := func(lines ...string) {
		for _, l := range lines {
			w.WriteString(l + "\r\n")
		}
		w.Flush()
	}
	var tx *smtpMessage
	underTLS := false
	reply("220 127.0.0.1 ESMTP test")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			ext := []string{"250-127.0.0.1 hello", "250-8BITMIME"}
			if s.TLS != nil && !underTLS {
				ext = append(ext, "250-STARTTLS")
			}
			if s.Auth {
				ext = append(ext, "250-AUTH PLAIN")
			}
			reply(append(ext, "250 SIZE 1000000")...)
		case "HELO", "NOOP":
			reply("250 ok")
		case "STARTTLS":
			if s.TLS == nil || underTLS {
				reply("502 not now")
				continue
			}
			reply("220 go ahead")
			tc := tls.Server(conn, s.TLS)
			if tc.Handshake() != nil {
				return
			}
			conn, underTLS, tx = tc, true, nil
			r, w = bufio.NewReader(conn), bufio.NewWriter(conn)
		case "AUTH":
			mech, resp, _ := strings.Cut(arg, " ")
			b, err := base64.StdEncoding.DecodeString(resp)
			parts := strings.Split(string(b), "\x00")
			if !strings.EqualFold(mech, "PLAIN") || err != nil || len(parts) != 3 {
				reply("535 bad auth")
				continue
			}
			s.mu.Lock()
			s.logins = append(s.logins, parts[1]+":"+parts[2])
			s.mu.Unlock()
			reply("235 ok")
		case "MAIL":
			addr, err := pathArg(arg, "FROM:")
			if err != nil {
				reply("501 " + err.Error())
				continue
			}
			tx = &smtpMessage{From: addr}
			reply("250 ok")
		case "RCPT":
			addr, err := pathArg(arg, "TO:")
			switch {
			case tx == nil:
				reply("503 MAIL first")
			case err != nil:
				reply("501 " + err.Error())
			case addr == s.rejectRcpt():
				reply("550 no such user")
			default:
				tx.To = append(tx.To, addr)
				reply("250 ok")
			}
		case "DATA":
			if tx == nil || len(tx.To) == 0 {
				reply("503 RCPT first")
				continue
			}
			reply("354 end with .")
			var data strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				data.WriteString(strings.TrimPrefix(l, ".")) // undo dot-stuffing
			}
			tx.Data = data.String()
			s.mu.Lock()
			s.attempts++
			fail := s.failData > 0
			if fail {
				s.failData--
			} else {
				s.msgs = append(s.msgs, *tx)
				s.tlsUsed = append(s.tlsUsed, underTLS)
			}
			s.mu.Unlock()
			tx = nil
			if fail {
				reply("451 try again later")
			} else {
				reply("250 queued")
			}
		case "RSET":
			tx = nil
			reply("250 ok")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("500 unknown command")
		}
	}
}

func (s *smtpServer) rejectRcpt() string { s.mu.Lock(); defer s.mu.Unlock(); return s.rejectRcp }

// pathArg reads "FROM:<addr> [params]".
func pathArg(arg, prefix string) (string, error) {
	if len(arg) < len(prefix) || !strings.EqualFold(arg[:len(prefix)], prefix) {
		return "", fmt.Errorf("want %s<address>", prefix)
	}
	rest := strings.TrimSpace(arg[len(prefix):])
	path, _, _ := strings.Cut(rest, " ")
	if !strings.HasPrefix(path, "<") || !strings.HasSuffix(path, ">") {
		return "", fmt.Errorf("want %s<address>", prefix)
	}
	return path[1 : len(path)-1], nil
}

// parseMessage reads a received message with net/mail.
func parseMessage(t *testing.T, data string) *mail.Message {
	t.Helper()
	m, err := mail.ReadMessage(strings.NewReader(data))
	if err != nil {
		t.Fatalf("received message does not parse: %v\n%s", err, data)
	}
	return m
}
