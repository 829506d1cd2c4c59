package mailin_test

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var screenshot = flag.String("screenshot", "", "write a PNG of the confirmation page to this file (docs/images/mail-confirm.png)")

// browser starts Debian's chromium, headless, for one test. Without it
// the test is skipped, unless DEALCTL_REQUIRE_BROWSER is set (.ci/run
// installs chromium and sets it).
func chromium(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		// As LibreOffice and PostgreSQL: a fresh machine's `go test ./...`
		// passes without it (README), and CI, which installs it, requires it.
		if os.Getenv("DEALCTL_REQUIRE_BROWSER") == "" {
			t.Skip("chromium is not installed (apt-get install chromium): the confirmation page is not driven in a browser; .ci/run installs it and requires this test")
		}
		t.Fatal("chromium is not installed (apt-get install chromium), and DEALCTL_REQUIRE_BROWSER requires this test")
	}
	// Headless, and kept from reaching out: test machines refuse outside
	// connections, and without these flags Chromium keeps trying.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(900, 720))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTime(); cancelCtx(); cancelAlloc() })
	return ctx
}

// TestConfirmationPageInABrowser: the sender opens the link from their
// mail and presses Post; the reply is posted; the link opened again
// offers no form. A second reply is discarded with Discard. The page's
// text is what the mail said, escaped: markup in a reply stays text.
func TestConfirmationPageInABrowser(t *testing.T) {
	ctx := chromium(t)
	e := newEnv(t)
	addrs := e.ask(t, "falcon", "2.3")
	to := addrs["elena@acme.example"]
	body := "The audited accounts 2025 are attached, signed by the auditor on 20 February.\n\nThe <b>management letter</b> follows next week."
	raw := "From: Elena Rossi <elena@acme.example>\nTo: " + to + "\nSubject: Re: [Falcon] 2.3 Audited accounts 2025\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=B\n\n" +
		"--B\nContent-Type: text/plain; charset=utf-8\n\n" + body + "\n\nOn Mon, 1 Mar 2027 at 09:00, dealctl <deals@target.example> wrote:\n> Please send them.\n" +
		"--B\nContent-Type: application/pdf\nContent-Disposition: attachment; filename=\"accounts-2025-signed.pdf\"\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQKJeLjz9MK\n--B--\n"
	if err := e.send("elena@acme.example", to, raw); err != nil {
		t.Fatal(err)
	}
	link := e.confirmLink(t, "falcon", "elena@acme.example")

	do := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(sel))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	do(chromedp.Navigate(link))
	if heading, shown := text("h1"), text("pre"); heading != "Post this reply to 2.3 as Elena Rossi?" || strings.TrimSpace(shown) != body {
		t.Fatalf("the page shows %q and\n%q", heading, shown)
	}
	if *screenshot != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*screenshot, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	do(chromedp.Click(`button[value="post"]`), chromedp.WaitVisible(`p.note`))
	if after := text("h1"); after != "Your reply is posted to 2.3" {
		t.Fatalf("after Post: %q", after)
	}
	msgs := e.messages(t, "olivia", "falcon", "2.3")
	if m := msgs[len(msgs)-1]; len(msgs) != 2 || m.Source != "email" || m.Text != body || len(m.Files) != 1 {
		t.Fatalf("posted: %+v", msgs)
	}
	// The link replayed: no form, nothing more posted.
	do(chromedp.Navigate(link))
	forms, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.forms.length`))
	if err != nil {
		t.Fatal(err)
	}
	if replay := text("h1"); replay != "This reply was posted already" || forms != 0 {
		t.Errorf("the replayed link: %q, %d forms", replay, forms)
	}

	// Ben's reply, discarded.
	ben := addrs["ben@acme.example"]
	if err := e.send("ben@acme.example", ben, strings.ReplaceAll(reply("ben@acme.example", ben, "Wrong request."), "Elena Rossi", "Ben")); err != nil {
		t.Fatal(err)
	}
	do(chromedp.Navigate(e.confirmLink(t, "falcon", "ben@acme.example")),
		chromedp.Click(`button[value="discard"]`), chromedp.WaitVisible(`p.note`))
	if discarded := text("h1"); discarded != "Your reply was discarded" {
		t.Errorf("after Discard: %q", discarded)
	}
	if n := len(e.messages(t, "olivia", "falcon", "2.3")); n != 2 {
		t.Errorf("Discard posted: %d messages", n)
	}
}
