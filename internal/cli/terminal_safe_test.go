package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/iostreams"
	"github.com/dealctl/dealctl/internal/termsafe/termsafetest"
)

const bobKey = "dlk_bob0000000000000000000000000000000000"

// charRefs is Markdown that decodes to an OSC 52 clipboard write unless
// the character references are neutralised before rendering.
const charRefs = " &#27;]52;c;ZXZpbA==&#7; &#x1b;[2J &#x9B;2J"

// TestHostileTextThroughEveryPrinter puts each of termsafetest.Hostile in an
// owner's title, body and requester and in a counterparty's message, on
// the real server, then prints them through every printer a person reads
// on a terminal, and fails on any control left that dealctl did not write.
func TestHostileTextThroughEveryPrinter(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	ctx := context.Background()
	alice, bob := liveClient(t, ls.URL, aliceKey), liveClient(t, ls.URL, bobKey)
	dealID, row := liveRow(t, alice, "1.2")
	for _, h := range termsafetest.Hostile {
		t.Run(h.Name, func(t *testing.T) {
			in := api.DealRequestUpdate{Title: api.Some("Minutes " + h.Text), Body: api.Some("Body\n" + h.Text),
				Requester: api.Some("Req " + h.Text)}
			if _, err := alice.UpdateRequest(ctx, dealID, row.ID, in); err != nil {
				t.Skipf("the server refuses it in a title (%v): it cannot reach a terminal", err)
			}
			label := "label " + h.Text
			msg := api.MessageCreate{Text: api.Some("**Here** " + h.Text + charRefs), Kind: api.Some(api.MessageQuestion),
				Links: api.Some([]api.Link{{URL: "https://example.com/x", Label: &label}})}
			if _, err := bob.PostMessage(ctx, dealID, row.ID, msg); err != nil {
				t.Fatalf("posting: %v", err)
			}
			for _, args := range [][]string{
				{"requests", "ls"},
				{"requests", "ls", "-o", "csv"},
				{"requests", "ls", "-o", "tsv"},
				{"requests", "ls", "--jq", ".[].title"},
				{"requests", "show", "1.2"},
				{"messages", "ls", "1.2"},
				{"messages", "ls", "1.2", "-o", "csv"},
				{"files", "ls", "1.2"},
				{"requests", "edit", "1.2", "--priority", "high"},
			} {
				for _, color := range []bool{false, true} {
					r := run(t, nil, runOpts{tty: true, color: color, env: map[string]string{
						"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey}}, args...)
					if r.code != 0 {
						t.Fatalf("%v: exit %d: %s", args, r.code, r.err)
					}
					assertTerminalSafe(t, strings.Join(args, " "), r.out+r.err)
				}
			}
		})
	}
}

// TestHostileTextInWatch prints watch's events (a new answer, a status
// move) on a terminal.
func TestHostileTextInWatch(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	ctx := context.Background()
	bob := liveClient(t, ls.URL, bobKey)
	dealID, row := liveRow(t, bob, "1.2")
	for _, h := range termsafetest.Hostile {
		t.Run(h.Name, func(t *testing.T) {
			ios, _, out, errOut := iostreams.Test()
			ios.SetStdoutTTY(true)
			f := testFactory(t, ios, map[string]string{"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey, "DEALCTL_DEAL": "falcon",
				"XDG_CONFIG_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(), "DEALCTL_KEYRING": "file"})
			polled := false
			opts := &WatchOptions{cmdEnv: f.env(), Interval: time.Second, Count: 2, Sleep: func(context.Context, time.Duration) error {
				if !polled {
					polled = true
					in := api.MessageCreate{Text: api.Some(h.Text + charRefs), Partial: api.Some(true)}
					if _, err := bob.PostMessage(ctx, dealID, row.ID, in); err != nil {
						t.Skipf("the server refuses it in a message (%v)", err)
					}
				}
				return nil
			}}
			if err := watchRun(ctx, opts); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "1.2") {
				t.Fatalf("watch printed no event:\n%s", out)
			}
			assertTerminalSafe(t, "watch", out.String()+errOut.String())
		})
	}
}

// TestHostileTextInErrors prints an error answer that quotes hostile text.
func TestHostileTextInErrors(t *testing.T) {
	t.Parallel()
	for _, h := range termsafetest.Hostile {
		var buf bytes.Buffer
		err := &client.Error{StatusCode: 422, Method: "PATCH", URL: "http://x/api/v1/deals/d/requests/r", Decoded: true,
			Response: &api.ErrorResponse{Code: api.CodeValidationFailed, Fields: []api.FieldError{
				{Path: "title" + h.Text, Code: "too_long" + h.Text, Params: map[string]any{"max": h.Text}}}}}
		printError(&buf, err, false)
		assertTerminalSafe(t, h.Name, buf.String())
	}
}

// TestJSONOutputKeepsServerText checks that -o json is left exact: the
// sanitising is for people, and scripts need the text as written.
func TestJSONOutputKeepsServerText(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	alice := liveClient(t, ls.URL, aliceKey)
	dealID, row := liveRow(t, alice, "1.2")
	title := termsafetest.Hostile[0].Text
	if _, err := alice.UpdateRequest(context.Background(), dealID, row.ID, api.DealRequestUpdate{Title: api.Some(title)}); err != nil {
		t.Fatal(err)
	}
	r := run(t, nil, runOpts{tty: true, env: map[string]string{"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey}},
		"requests", "show", "1.2", "-o", "json")
	var got api.DealRequest
	if err := json.Unmarshal([]byte(r.out), &got); err != nil || got.Title != title {
		t.Errorf("-o json title %q (%v), want %q as written", got.Title, err, title)
	}
}

func TestSafeCopyLeavesTheOriginal(t *testing.T) {
	t.Parallel()
	name := "a\x1b]0;x\x07"
	m := api.Message{Text: "line1\nline2\x1b[2J", Author: &api.Author{Name: &name}}
	safe := output.SafeCopy(m)
	if m.Text != "line1\nline2\x1b[2J" || *m.Author.Name != name {
		t.Errorf("SafeCopy changed its input: %+v", m)
	}
	if safe.Text != "line1\nline2␛[2J" || *safe.Author.Name != "a␛]0;x␇" {
		t.Errorf("SafeCopy = %q, %q", safe.Text, *safe.Author.Name)
	}
}

// sgr is the colouring dealctl writes itself when colour is on.
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// assertTerminalSafe fails on any ESC, C0 other than newline and tab, C1,
// DEL or bidirectional control in out, once dealctl's own SGR colouring
// is taken out.
func assertTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	out = sgr.ReplaceAllString(out, "")
	for i, r := range out {
		bad := (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
		if r == utf8.RuneError {
			bad = !strings.HasPrefix(out[i:], "\uFFFD")
		}
		if bad {
			t.Errorf("%s: %U left at byte %d in:\n%q", what, r, i, out)
			return
		}
	}
}

func liveClient(t *testing.T, url, key string) *client.Client {
	t.Helper()
	c, err := client.New(client.Options{BaseURL: url, Key: key, MaxRetries: -1, MaxRateWait: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// liveRow finds Falcon and its row numbered number.
func liveRow(t *testing.T, c *client.Client, number string) (string, *api.DealRequest) {
	t.Helper()
	ctx := context.Background()
	deals, err := c.Deals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range deals {
		if d.Codename != "Falcon" {
			continue
		}
		rows, err := c.Requests(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i := range rows {
			if rows[i].Number == number {
				return d.ID, &rows[i]
			}
		}
	}
	t.Fatalf("no Falcon %s", number)
	return "", nil
}

// TestMessagesLsRendersBombsWithinBounds: on a terminal, `messages ls`
// shows a thread of messages built to make the Markdown renderer work
// without end (the security review's 301-byte nested quote among them),
// with each message's text, safe and bounded.
func TestMessagesLsRendersBombsWithinBounds(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	ctx := context.Background()
	alice, bob := liveClient(t, ls.URL, aliceKey), liveClient(t, ls.URL, bobKey)
	dealID, row := liveRow(t, alice, "1.2")
	posted := 0
	for _, b := range termsafetest.RenderBombs {
		msg := api.MessageCreate{Text: api.Some(b.Text), Kind: api.Some(api.MessageQuestion)}
		if _, err := bob.PostMessage(ctx, dealID, row.ID, msg); err != nil {
			t.Logf("%s: the server refuses it (%v)", b.Name, err)
			continue
		}
		posted++
	}
	if posted < 6 {
		t.Fatalf("only %d of the bombs could be posted", posted)
	}
	for _, color := range []bool{false, true} {
		r := run(t, nil, runOpts{tty: true, color: color, env: map[string]string{
			"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey}}, "messages", "ls", "1.2")
		r.must(t, 0)
		if len(r.out) > 4<<20 {
			t.Errorf("%d bytes of output", len(r.out))
		}
		for _, want := range []string{"x", "|b|b|"} {
			if !strings.Contains(r.out, want) {
				t.Errorf("color %v: the output lacks %q", color, want)
			}
		}
		assertTerminalSafe(t, "messages ls", r.out+r.err)
	}
}
