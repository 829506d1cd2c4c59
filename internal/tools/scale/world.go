package main

import (
	"fmt"
	"io"
	"strings"
)

// worldShape is what the seeded world holds.
type worldShape struct {
	deals, rows, keys int
	// perDeal is how many keys reach each deal (half each side).
	perDeal int
	// bigRows, when positive, adds deal "big" of that many rows, which
	// key 0 reaches.
	bigRows int
}

// secret is key i's API key (keys.Validate: dlk_ and 32 letters or digits;
// the first 12 characters are the key's public prefix, unique).
func secret(i int) string { return fmt.Sprintf("dlk_sc%06d%s", i, strings.Repeat("0", 26)) }

// onDeal reports whether key (and user) u is on deal d: users are spread
// so that each deal has perDeal of them, half on each side.
func (w worldShape) onDeal(u, d int) bool {
	groups := max(1, w.keys/w.perDeal)
	return u%groups == d%groups
}

// sellSide reports whether user u is on the owning side of its deals.
func (w worldShape) sellSide(u int) bool {
	groups := max(1, w.keys/w.perDeal)
	return (u/groups)%2 == 0
}

// write prints the world file: users u0…, each on the deals onDeal says,
// the first of each side on a deal its admin, the rest editors; deals of
// rows rows in sections of 11 (the section and 10 requests), every third
// request answered by the counterparty.
func (w worldShape) write(out io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(out, format, args...) }
	p("organizations:\n  - {key: target, name: Target Co}\n  - {key: acme, name: Acme Capital}\n")
	p("users:\n")
	for u := range w.keys {
		org := "acme"
		if w.sellSide(u) {
			org = "target"
		}
		p("  - {key: u%d, name: User %d, email: u%d@%s.example, organization: %s}\n", u, u, u, org, org)
	}
	p("deals:\n")
	for d := range w.deals {
		w.deal(out, fmt.Sprintf("d%d", d), w.rows, func(u int) bool { return w.onDeal(u, d) })
	}
	if w.bigRows > 0 {
		w.deal(out, "big", w.bigRows, func(u int) bool { return u == 0 || u == w.keys-1 })
	}
	p("keys:\n")
	for u := range w.keys {
		p("  - {key: k%d, user: u%d, access: write, secret: %s, expires_in: 30d}\n", u, u, secret(u))
	}
}

func (w worldShape) deal(out io.Writer, key string, rows int, on func(u int) bool) {
	p := func(format string, args ...any) { fmt.Fprintf(out, format, args...) }
	p("  - key: %s\n    name: Project %s\n    parties:\n", key, key)
	p("      - {key: sell, side: sell, label: Target Co, owner: true, organization: target}\n")
	p("      - {key: buy, side: buy, organization: acme}\n    people:\n")
	firstSell, firstBuy := -1, -1
	for u := range w.keys {
		if !on(u) {
			continue
		}
		party, access, admin := "buy", "editor", false
		if w.sellSide(u) {
			party = "sell"
			if firstSell < 0 {
				firstSell, access, admin = u, "admin", true
			}
		} else if firstBuy < 0 {
			firstBuy, access = u, "admin"
		}
		p("      - {user: u%d, party: %s, access: %s, project_admin: %v}\n", u, party, access, admin)
	}
	p("    requests:\n")
	cats := []string{"legal", "tax", "accounting", "business", "technology"}
	pris := []string{"low", "medium", "high"}
	for n, s := 0, 1; n < rows; s++ {
		p("      - {number: \"%d\", kind: section, title: \"Workstream %d\"}\n", s, s)
		n++
		for i := 1; i <= 10 && n < rows; i++ {
			k := s*10 + i
			p("      - number: \"%d.%d\"\n        title: \"Request %d.%d: copies of every agreement of kind %d, with amendments\"\n", s, i, s, i, k%97)
			p("        body: \"Provide the signed copies, the schedules and any side letters. Flag anything that changes control, pricing or exclusivity. Ref %d.\"\n", k)
			p("        priority: %s\n        category: %s\n        due_date: 2027-%02d-%02d\n", pris[k%3], cats[k%5], k%12+1, k%28+1)
			if firstBuy >= 0 && k%3 == 0 {
				p("        messages:\n          - {author: u%d, text: \"Attached the agreements for %d.%d, more to come.\", partial: true}\n", firstBuy, s, i)
			}
			n++
		}
	}
}
