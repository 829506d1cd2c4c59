package mailin

import (
	"strings"
	"testing"
)

func TestCleanCutsHistoryAndSignatures(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"gmail", "The accounts are attached.\r\n\r\nOn Tue, 3 Mar 2026 at 10:00, dealctl <deals@example.com> wrote:\r\n> Elena posted a question\r\n> on 2.3\r\n", "The accounts are attached."},
		{"wrapped attribution", "Yes.\n\nOn Tue, 3 Mar 2026 at 10:00, Deals Desk <deals@example.com>\nwrote:\n> question\n", "Yes."},
		{"outlook", "Agreed.\n\n-----Original Message-----\nFrom: dealctl\nSent: Tuesday\n", "Agreed."},
		{"outlook header block", "Agreed.\n\n________________________________\nFrom: dealctl <d@x>\nSent: Tuesday\n", "Agreed."},
		{"outlook bare header", "Agreed.\n\nFrom: dealctl <d@x>\nSent: Tuesday, 3 March\nTo: Ana\n", "Agreed."},
		{"signature", "See the data room.\n\n-- \nElena Rossi\nCFO, Target\n", "See the data room."},
		{"phone", "Fine by me.\n\nSent from my iPhone\n", "Fine by me."},
		{"inline quote kept", "> Is the lease assigned?\nYes, since May.\n> And the fit-out?\nNot yet.\n", "> Is the lease assigned?\nYes, since May.\n> And the fit-out?\nNot yet."},
		{"trailing quote dropped", "Yes.\n\n> question\n> more\n", "Yes."},
		{"forward kept", "Here is our counsel's answer.\n\n---------- Forwarded message ---------\nFrom: Counsel <c@law.example>\nDate: Mon, 2 Mar 2026\nSubject: Lease\n\nThe lease was assigned on 1 May.\n", "Here is our counsel's answer.\n\n---------- Forwarded message ---------\nFrom: Counsel <c@law.example>\nDate: Mon, 2 Mar 2026\nSubject: Lease\n\nThe lease was assigned on 1 May."},
		{"french", "Oui.\n\nLe mar. 3 mars 2026 à 10:00, dealctl <d@x> a écrit :\n> q\n", "Oui."},
	} {
		if got := Clean(c.in); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestHTMLTextLeavesQuotesAndMarkupOut(t *testing.T) {
	in := `<html><head><style>p{color:red}</style><script>alert(1)</script></head><body>
<div dir="ltr">The <b>accounts</b> are in the <a href="https://dr.example/x">data room</a>.<br>Second line &amp; more.</div>
<div class="gmail_quote"><div>On Tue, dealctl wrote:</div><blockquote>old question</blockquote></div>
</body></html>`
	got := HTMLText(strings.NewReader(in))
	want := "The accounts are in the data room <https://dr.example/x>.\nSecond line & more."
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	outlook := `<div>Agreed.</div><hr id="appendonsend"><div>From: dealctl</div><div>old</div>`
	if got := HTMLText(strings.NewReader(outlook)); got != "Agreed." {
		t.Fatalf("outlook: got %q", got)
	}
}
