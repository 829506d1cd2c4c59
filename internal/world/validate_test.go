package world

import (
	"errors"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// baseWorld is a small valid world the validation cases break one way each.
const baseWorld = `
organizations:
  - {key: acme, name: Acme Capital}
  - {key: target, name: Target Co}
users:
  - {key: alice, name: Alice, email: alice@target.example, organization: target}
  - {key: bob, name: Bob, email: bob@acme.example, organization: acme}
deals:
  - key: falcon
    name: Project Falcon
    timezone: Europe/London
    parties:
      - {key: sell, side: sell, owner: true, organization: target}
      - {key: buy, side: buy}
    people:
      - {user: alice, party: sell, access: admin}
      - {user: bob, party: buy, access: editor}
    requests:
      - {number: "1", kind: section, title: Corporate}
      - number: "1.1"
        title: Certificate
        assignee: alice
        messages:
          - {author: alice, text: Here it is.}
keys:
  - {key: k1, user: alice, access: write}
`

func TestValidateProblemsNamePlaces(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(w *World)
		want   string
	}{
		{"unknown enum", func(w *World) { w.Deals[0].Requests[1].Priority = "urgent" },
			`deals[0].requests[1].priority: "urgent" is not one of low, medium, high`},
		{"bad date", func(w *World) { w.Deals[0].Requests[1].DueDate = "2026-13-01" },
			`deals[0].requests[1].due_date: "2026-13-01" is not a date (YYYY-MM-DD`},
		{"bad relative date", func(w *World) { w.Deals[0].Requests[1].DueDate = "+3x" },
			`deals[0].requests[1].due_date: "+3x" is not a date`},
		{"undefined user", func(w *World) { w.Deals[0].People[1].User = "carol" },
			`deals[0].people[1].user: "carol" is not the key of any user in this file`},
		{"undefined organization", func(w *World) { w.Users[0].Organization = "nope" },
			`users[0].organization: "nope" is not the key of any organization`},
		{"duplicate number", func(w *World) {
			w.Deals[0].Requests = append(w.Deals[0].Requests, Request{Number: "1.1", Title: "Again"})
		}, `deals[0].requests[2].number: "1.1" is also the number of deals[0].requests[1]`},
		{"no parent section", func(w *World) {
			w.Deals[0].Requests = append(w.Deals[0].Requests, Request{Number: "2.1", Title: "Orphan"})
		}, `deals[0].requests[2].number: "2.1" has no section above it`},
		{"parent is a request", func(w *World) {
			w.Deals[0].Requests = append(w.Deals[0].Requests, Request{Number: "1.2", Title: "Under a request", Parent: "1.1"})
		}, `deals[0].requests[2].parent: "1.1" is a request, not a section`},
		{"nearest prefix is a request", func(w *World) {
			w.Deals[0].Requests[0].Number, w.Deals[0].Requests[1].Number = "9", "1"
			w.Deals[0].Requests = append(w.Deals[0].Requests, Request{Number: "1.1", Title: "Child"})
		}, `deals[0].requests[2].number: "1.1" has no section above it ("1" is a request, not a section)`},
		{"parent after child", func(w *World) {
			w.Deals[0].Requests[0], w.Deals[0].Requests[1] = w.Deals[0].Requests[1], w.Deals[0].Requests[0]
		}, `deals[0].requests[0].number: its section "1" comes after it`},
		{"section with status", func(w *World) { w.Deals[0].Requests[0].Status = "complete" },
			`deals[0].requests[0].status: a section has no status`},
		{"missing title", func(w *World) { w.Deals[0].Requests[1].Title = "  " },
			`deals[0].requests[1].title: missing`},
		{"assignee not on deal", func(w *World) { w.Deals[0].Requests[1].Assignee = "carol" },
			`deals[0].requests[1].assignee: "carol" is not a user key of a person on this deal`},
		{"bad timezone", func(w *World) { w.Deals[0].Timezone = "Mars/Olympus" },
			`deals[0].timezone: "Mars/Olympus" is not an IANA time zone`},
		{"two owners", func(w *World) { w.Deals[0].Parties[1].Owner = true },
			`deals[0].parties: exactly one party must have owner: true`},
		{"counterparty internal note", func(w *World) {
			w.Deals[0].Requests[1].Messages[0].Author, w.Deals[0].Requests[1].Messages[0].Kind = "bob", "internal_note"
		}, `deals[0].requests[1].messages[0].internal: the counterparty has no private notes`},
		{"link not https", func(w *World) {
			w.Deals[0].Requests[1].Messages[0].Links = []Link{{URL: "http://example.com"}}
		}, `deals[0].requests[1].messages[0].links[0].url: "http://example.com" is not an https link`},
		{"link without a host", func(w *World) {
			w.Deals[0].Requests[1].Messages[0].Links = []Link{{URL: "https:///doc"}}
		}, `deals[0].requests[1].messages[0].links[0].url: "https:///doc" is not a URL with a host`},
		{"NUL in a title", func(w *World) { w.Deals[0].Requests[1].Title = "Certifi\x00cate" },
			`deals[0].requests[1].title: contains a NUL character`},
		{"file with path and content", func(w *World) {
			c := "x"
			w.Deals[0].Requests[1].Messages[0].Files = []File{{Name: "a.txt", Path: "a.txt", Content: &c}}
		}, `deals[0].requests[1].messages[0].files[0]: give path or content, not both`},
		{"bad posted_at", func(w *World) { w.Deals[0].Requests[1].Messages[0].PostedAt = "yesterday" },
			`deals[0].requests[1].messages[0].posted_at: "yesterday" is not a time`},
		{"empty message", func(w *World) { w.Deals[0].Requests[1].Messages[0].Text = "" },
			`deals[0].requests[1].messages[0].text: missing`},
		{"bad secret", func(w *World) { w.Keys[0].Secret = "dlk_short" },
			`keys[0].secret: a key has at least 32 characters`},
		{"bad expires_in", func(w *World) { w.Keys[0].ExpiresIn = "soon" },
			`keys[0].expires_in: "soon" is not a duration`},
		{"negative expires_in", func(w *World) { w.Keys[0].ExpiresIn = "-5h" },
			`keys[0].expires_in: "-5h" is not a positive duration`},
		{"bad expires_at", func(w *World) { w.Keys[0].ExpiresAt = "tomorrow" },
			`keys[0].expires_at: "tomorrow" is not a time`},
		{"both expiries", func(w *World) { w.Keys[0].ExpiresAt, w.Keys[0].ExpiresIn = "2030-01-01T00:00:00Z", "1h" },
			`keys[0].expires_in: give expires_at or expires_in, not both`},
		{"key access", func(w *World) { w.Keys[0].Access = "admin" },
			`keys[0].access: "admin" is not one of read, write`},
		{"key deal undefined", func(w *World) { w.Keys[0].Deals = []string{"hawk"} },
			`keys[0].deals[0]: "hawk" is not the key of any deal`},
		{"key user not on deal", func(w *World) {
			w.Users = append(w.Users, User{Key: "carol", Email: "carol@x.example", Organization: "acme"})
			w.Keys[0].User, w.Keys[0].Deals = "carol", []string{"falcon"}
		}, `keys[0].deals[0]: user "carol" is not on deal "falcon"`},
		{"duplicate email", func(w *World) { w.Users[1].Email = "ALICE@target.example" },
			`users[1].email: "ALICE@target.example" is also the email of user "alice"`},
		{"duplicate key", func(w *World) { w.Organizations[1].Key = "acme" },
			`organizations[1].key: "acme" is used by another organization`},
		{"duplicate secret prefix", func(w *World) {
			w.Keys = append(w.Keys, Key{Key: "k2", User: "bob", Access: "read", Secret: "dlk_test0000000000000000000000000001"})
			w.Keys[0].Secret = "dlk_test0000000000000000000000000000"
		}, `keys[1].secret: starts like the secret of key "k1"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := decode([]byte(baseWorld))
			if err != nil {
				t.Fatal(err)
			}
			tc.break_(w)
			err = w.Validate()
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("Validate() = %v; want an *InvalidError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate() =\n%v\nwant a line containing\n%s", err, tc.want)
			}
		})
	}
}

func TestValidateBaseAndDefaults(t *testing.T) {
	w, err := Parse([]byte(baseWorld))
	if err != nil {
		t.Fatal(err)
	}
	r := w.Deals[0].Requests[1]
	if r.parentNumber != "1" || r.Kind != "request" || r.Status != "open" || r.Priority != "medium" || r.Category != "business" {
		t.Errorf("defaults not applied: %+v", r)
	}
	if m := r.Messages[0]; m.Kind != "response" || m.Source != "web" {
		t.Errorf("message defaults not applied: %+v", m)
	}
	if w.Deals[0].Codename != "Project Falcon" || w.Keys[0].Name != "k1" || w.Deals[0].People[1].Role != "other" {
		t.Errorf("name defaults not applied: codename %q, key name %q, role %q", w.Deals[0].Codename, w.Keys[0].Name, w.Deals[0].People[1].Role)
	}
}

func TestParentInferenceSkipsRequests(t *testing.T) {
	w, err := decode([]byte(baseWorld))
	if err != nil {
		t.Fatal(err)
	}
	// 1.1.1 sits under section 1, since 1.1 is a request.
	w.Deals[0].Requests = append(w.Deals[0].Requests, Request{Number: "1.1.1", Title: "Deep"},
		Request{Number: "1.2", Kind: "section", Title: "Sub"}, Request{Number: "1.2.1", Title: "Under sub"})
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int]string{2: "1", 4: "1.2"} {
		if got := w.Deals[0].Requests[i].parentNumber; got != want {
			t.Errorf("%s: parent %q, want %q", w.Deals[0].Requests[i].Number, got, want)
		}
	}
}

func TestParseSyntax(t *testing.T) {
	cases := []struct{ name, doc, want string }{
		{"unknown YAML field", "users:\n  - {key: a, email: a@b.c, organization: o, nickname: x}\n", "field nickname not found"},
		{"unknown JSON field", `{"users": [{"key": "a", "nickname": "x"}]}`, `unknown field "nickname"`},
		{"YAML type", "deals: 3\n", "line 1"},
		{"JSON syntax", `{"users": [}`, "not a valid JSON world file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc))
			var syn *SyntaxError
			if !errors.As(err, &syn) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse() = %v; want a *SyntaxError containing %q", err, tc.want)
			}
		})
	}
}

func TestParseJSONEqualsYAML(t *testing.T) {
	y, err := Parse([]byte(baseWorld))
	if err != nil {
		t.Fatal(err)
	}
	j, err := Parse([]byte(`{"organizations": [{"key": "acme", "name": "Acme Capital"}, {"key": "target", "name": "Target Co"}],
	"users": [{"key": "alice", "name": "Alice", "email": "alice@target.example", "organization": "target"},
	          {"key": "bob", "name": "Bob", "email": "bob@acme.example", "organization": "acme"}],
	"deals": [{"key": "falcon", "name": "Project Falcon", "timezone": "Europe/London",
		"parties": [{"key": "sell", "side": "sell", "owner": true, "organization": "target"}, {"key": "buy", "side": "buy"}],
		"people": [{"user": "alice", "party": "sell", "access": "admin"}, {"user": "bob", "party": "buy", "access": "editor"}],
		"requests": [{"number": "1", "kind": "section", "title": "Corporate"},
			{"number": "1.1", "title": "Certificate", "assignee": "alice", "messages": [{"author": "alice", "text": "Here it is."}]}]}],
	"keys": [{"key": "k1", "user": "alice", "access": "write"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if y.Deals[0].Requests[1].Title != j.Deals[0].Requests[1].Title || j.Deals[0].Requests[1].parentNumber != "1" ||
		len(j.Users) != 2 || j.Keys[0].Access != "write" {
		t.Errorf("JSON and YAML forms differ: %+v vs %+v", j, y)
	}
}

func TestYAMLScalarsStayText(t *testing.T) {
	// Unquoted numbers and dates must keep their text: 1.10 is not 1.1.
	w, err := decode([]byte("deals:\n  - key: d\n    requests:\n      - {number: 1.10, due_date: 2026-12-01}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r := w.Deals[0].Requests[0]; r.Number != "1.10" || r.DueDate != "2026-12-01" {
		t.Errorf("number %q, due_date %q", r.Number, r.DueDate)
	}
}

// A world file is held to the API's limits as the server counts them: in
// characters, not bytes ("é" is two bytes in UTF-8).
func TestValidateCountsCharactersAsTheServerDoes(t *testing.T) {
	e := func(n int) string { return strings.Repeat("é", n) }
	fill := func(w *World, extra int) {
		d := &w.Deals[0]
		d.Requests[1].Number = "1." + e(api.MaxNumberLen-2+extra)
		label := e(maxPartyLabel + extra)
		d.Parties[1].Label = &label
		linkLabel := e(api.MaxLinkLabelLen + extra)
		const site = "https://example.com/"
		d.Requests[1].Messages[0].Links = []Link{{URL: site + e(api.MaxLinkURLLen-len(site)+extra), Label: &linkLabel}}
	}
	w, err := decode([]byte(baseWorld))
	if err != nil {
		t.Fatal(err)
	}
	fill(w, 0)
	if err := w.Validate(); err != nil {
		t.Errorf("values at the limits, counted in characters, were refused:\n%v", err)
	}

	w, err = decode([]byte(baseWorld))
	if err != nil {
		t.Fatal(err)
	}
	fill(w, 1)
	err = w.Validate()
	for _, want := range []string{
		"deals[0].requests[1].number: longer than 64 characters",
		"deals[0].parties[1].label: longer than 200 characters",
		"deals[0].requests[1].messages[0].links[0].url: longer than 2048 characters",
		"deals[0].requests[1].messages[0].links[0].label: longer than 200 characters",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("one character over every limit: Validate() =\n%v\nwant a line containing\n%s", err, want)
		}
	}
}

// A world file's numbers follow the one rule of a number's shape
// (domain.CheckNumberShape), as the server's and the import's do.
func TestValidateRefusesMalformedNumbers(t *testing.T) {
	for n, want := range map[string]string{"1..2": "has an empty part", "A 1": "has spaces in it"} {
		w, err := decode([]byte(baseWorld))
		if err != nil {
			t.Fatal(err)
		}
		w.Deals[0].Requests[1].Number = n
		if err := w.Validate(); err == nil || !strings.Contains(err.Error(), "deals[0].requests[1].number: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("number %q: Validate() = %v, want requests[1].number %s", n, err, want)
		}
	}
}
