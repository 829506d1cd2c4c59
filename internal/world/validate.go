package world

import (
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // deals name IANA zones; don't depend on the host's zoneinfo

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// Seeded rows keep the API's limits (the rules of domain.TextRule), so
// that a seeded deal reads back exactly like one built through the API.
// A party's label is no API input and the docs set it no limit:
// world files keep the bound they always had, counted the same way.
const maxPartyLabel = 200

// validator collects problems with their paths.
type validator struct {
	problems []Problem
}

func (v *validator) add(path, format string, a ...any) {
	v.problems = append(v.problems, Problem{Path: path, Msg: fmt.Sprintf(format, a...)})
}

// Validate checks the whole world and fills in what Apply needs (each
// request's parent). It returns an *InvalidError listing every problem.
func (w *World) Validate() error {
	v := &validator{}
	orgs := v.organizations(w.Organizations)
	users := v.users(w.Users, orgs)
	deals := map[string]*Deal{}
	for i := range w.Deals {
		d := &w.Deals[i]
		path := fmt.Sprintf("deals[%d]", i)
		if localKey(v, path+".key", d.Key, "deal", deals) {
			deals[d.Key] = d
		}
		v.deal(path, d, orgs, users)
	}
	v.keys(w.Keys, users, deals)
	if len(v.problems) > 0 {
		return &InvalidError{Problems: v.problems}
	}
	return nil
}

// localKey checks a `key:` is present and unused among seen.
func localKey[T any](v *validator, path, key, what string, seen map[string]T) bool {
	switch {
	case strings.TrimSpace(key) == "":
		v.add(path, "missing: every %s needs a key (a local name used for references)", what)
		return false
	case strings.ContainsAny(key, "/ \t\n"):
		v.add(path, "%q: a key has no spaces or slashes", key)
		return false
	}
	if _, dup := seen[key]; dup {
		v.add(path, "%q is used by another %s", key, what)
		return false
	}
	return true
}

func (v *validator) organizations(list []Organization) map[string]bool {
	seen := map[string]bool{}
	for i, o := range list {
		path := fmt.Sprintf("organizations[%d]", i)
		if localKey(v, path+".key", o.Key, "organization", seen) {
			seen[o.Key] = true
		}
		if strings.TrimSpace(o.Name) == "" {
			v.add(path+".name", "missing: an organization needs a name")
		}
	}
	return seen
}

func (v *validator) users(list []User, orgs map[string]bool) map[string]*User {
	seen := map[string]*User{}
	emails := map[string]string{}
	for i := range list {
		u := &list[i]
		path := fmt.Sprintf("users[%d]", i)
		if localKey(v, path+".key", u.Key, "user", seen) {
			seen[u.Key] = u
		}
		email := strings.ToLower(strings.TrimSpace(u.Email))
		switch {
		case email == "":
			v.add(path+".email", "missing: a user needs an email (people are named by it)")
		case !strings.Contains(email, "@") || strings.ContainsAny(email, " \t\n"):
			v.add(path+".email", "%q is not an email address", u.Email)
		case emails[email] != "":
			v.add(path+".email", "%q is also the email of user %q", u.Email, emails[email])
		default:
			emails[email] = u.Key
		}
		v.ref(path+".organization", u.Organization, "organization", orgs, true)
	}
	return seen
}

// ref checks a reference to a local key of kind what.
func ref[T any](v *validator, path, name, what string, defined map[string]T, required bool) bool {
	if name == "" {
		if required {
			v.add(path, "missing: name the %s by its key", what)
		}
		return false
	}
	if _, ok := defined[name]; !ok {
		v.add(path, "%q is not the key of any %s in this file", name, what)
		return false
	}
	return true
}

func (v *validator) ref(path, name, what string, defined map[string]bool, required bool) bool {
	return ref(v, path, name, what, defined, required)
}

// enum checks a value against an enumeration; "" takes def.
func enum[T ~string](v *validator, path string, value *string, def T, allowed []T) {
	if *value == "" {
		*value = string(def)
		return
	}
	if !api.OneOf(T(*value), allowed) {
		v.add(path, "%q is not one of %s", *value, strings.Join(api.Names(allowed), ", "))
	}
}

// requiredEnum is enum without a default.
func requiredEnum[T ~string](v *validator, path string, value *string, allowed []T) {
	if *value == "" {
		v.add(path, "missing: one of %s", strings.Join(api.Names(allowed), ", "))
		return
	}
	enum(v, path, value, "", allowed)
}

// text checks a text field by the rule the server checks it by, so that
// a seeded deal holds nothing the API would refuse. It reports whether
// the text passed. A missing title or number is said before, in the
// words of the field.
func (v *validator) text(path, s string, rule domain.TextRule) bool {
	switch rule.Check(s) {
	case domain.TextOK:
		return true
	case domain.TextTooLong:
		v.add(path, "longer than %d characters", rule.Max)
	case domain.TextNUL:
		v.add(path, "contains a NUL character, which no text field takes")
	case domain.TextUntrimmed:
		v.add(path, "%q has leading or trailing spaces", s)
	default: // empty or blank
		v.add(path, "missing")
	}
	return false
}

func (v *validator) deal(path string, d *Deal, orgs map[string]bool, users map[string]*User) {
	if strings.TrimSpace(d.Name) == "" {
		v.add(path+".name", "missing: a deal needs a name")
	}
	if d.Codename == "" {
		d.Codename = d.Name
	}
	if d.Timezone == "" {
		d.Timezone = "UTC"
	}
	if _, err := time.LoadLocation(d.Timezone); err != nil {
		v.add(path+".timezone", "%q is not an IANA time zone (like Europe/London or America/New_York)", d.Timezone)
	}
	parties := v.parties(path, d.Parties, orgs)
	people := v.people(path, d.People, users, parties)
	v.requests(path, d, people, parties)
}

func (v *validator) parties(path string, list []Party, orgs map[string]bool) map[string]*Party {
	seen := map[string]*Party{}
	owners := 0
	for i := range list {
		p := &list[i]
		pp := fmt.Sprintf("%s.parties[%d]", path, i)
		if localKey(v, pp+".key", p.Key, "party of this deal", seen) {
			seen[p.Key] = p
		}
		requiredEnum(v, pp+".side", &p.Side, api.Sides)
		v.ref(pp+".organization", p.Organization, "organization", orgs, false)
		if p.Label != nil {
			v.text(pp+".label", *p.Label, domain.TextRule{Max: maxPartyLabel})
		}
		if p.Owner {
			owners++
		}
	}
	if owners != 1 {
		v.add(path+".parties", "exactly one party must have owner: true (the side that runs the list); found %d", owners)
	}
	return seen
}

func (v *validator) people(path string, list []Person, users map[string]*User, parties map[string]*Party) map[string]*Person {
	seen := map[string]*Person{}
	for i := range list {
		p := &list[i]
		pp := fmt.Sprintf("%s.people[%d]", path, i)
		if ref(v, pp+".user", p.User, "user", users, true) {
			if _, dup := seen[p.User]; dup {
				v.add(pp+".user", "%q is already on this deal", p.User)
			} else {
				seen[p.User] = p
			}
		}
		ref(v, pp+".party", p.Party, "party of this deal", parties, true)
		requiredEnum(v, pp+".access", &p.Access, api.Accesses)
		enum(v, pp+".role", &p.Role, api.RoleOther, api.ParticipantRoles)
	}
	return seen
}
