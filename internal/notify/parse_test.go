package notify

import (
	"strings"
	"testing"
)

func TestParseURL(t *testing.T) {
	for _, tc := range []struct {
		raw, secret string
		want        string // type of Sender, or "" for an error
		errHas      string
		check       func(t *testing.T, s Sender)
	}{
		{raw: "", want: "log"},
		{raw: "log", want: "log"},
		{raw: " LOG ", want: "log"},
		{raw: "smtp://mail.example.com?from=dealctl@example.com", want: "smtp", check: func(t *testing.T, s Sender) {
			m := s.(*SMTPSender)
			if m.Addr != "mail.example.com:25" || m.From.Address != "dealctl@example.com" || m.Auth != nil || m.mode != tlsOpportunistic {
				t.Errorf("got %+v", m)
			}
		}},
		{raw: "smtp://u:p%40ss@mail.example.com:587?from=Deals+%3Cdeals@example.com%3E&starttls=true", want: "smtp", check: func(t *testing.T, s Sender) {
			m := s.(*SMTPSender)
			if m.Addr != "mail.example.com:587" || m.From.Name != "Deals" || m.Auth == nil || m.mode != tlsRequired {
				t.Errorf("got %+v", m)
			}
		}},
		{raw: "smtps://mail.example.com?from=a@example.com", want: "smtp", check: func(t *testing.T, s Sender) {
			if m := s.(*SMTPSender); m.Addr != "mail.example.com:465" || m.mode != tlsImplicit {
				t.Errorf("got %+v", m)
			}
		}},
		{raw: "smtp://[::1]:2525?from=a@example.com&starttls=false", want: "smtp", check: func(t *testing.T, s Sender) {
			if m := s.(*SMTPSender); m.Addr != "[::1]:2525" || m.mode != tlsNever {
				t.Errorf("got %+v", m)
			}
		}},
		{raw: "https://hooks.example.com/dealctl?t=1", secret: "k", want: "webhook"},
		{raw: "http://127.0.0.1:9000/hook", secret: "k", want: "webhook"},
		{raw: "https://hooks.example.com/dealctl", errHas: "secret"},
		{raw: "smtp://mail.example.com", errHas: "from= is required"},
		{raw: "smtp://mail.example.com?from=not-an-address", errHas: "from="},
		{raw: "smtp://?from=a@example.com", errHas: "no host"},
		{raw: "smtp://mail.example.com:0?from=a@example.com", errHas: "bad port"},
		{raw: "smtp://mail.example.com?from=a@example.com&starttls=maybe", errHas: "starttls"},
		{raw: "smtp://mail.example.com?from=a@example.com&tls=1", errHas: `unknown parameter "tls"`},
		{raw: "smtps://mail.example.com?from=a@example.com&starttls=true", errHas: "smtps"},
		{raw: "smtp://u:hunter2@mail.example.com?from=a@example.com&starttls=false", errHas: "only sent over TLS"},
		{raw: "ftp://files.example.com", errHas: `unknown scheme "ftp"`},
		{raw: "mail.example.com:25", errHas: "smtp://"},
		{raw: "https://", secret: "k", errHas: "http(s)://host"},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			s, err := ParseURL(tc.raw, tc.secret)
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("err = %v, want one containing %q", err, tc.errHas)
				}
				if strings.Contains(err.Error(), "hunter2") {
					t.Errorf("error shows the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			kind := map[string]bool{"log": isType[*LogSender](s), "smtp": isType[*SMTPSender](s), "webhook": isType[*WebhookSender](s)}
			if !kind[tc.want] {
				t.Fatalf("ParseURL gave %T, want %s", s, tc.want)
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

func TestParseURLErrorNamesTheForms(t *testing.T) {
	_, err := ParseURL("gopher://x", "")
	for _, form := range []string{"log", "smtp://", "http(s)://"} {
		if err == nil || !strings.Contains(err.Error(), form) {
			t.Errorf("error %v does not name %q", err, form)
		}
	}
}

func isType[T any](v any) bool { _, ok := v.(T); return ok }
