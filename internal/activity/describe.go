package activity

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
)

// Names tells a description what the event's ids stand for: a request's
// number and title, a person's name. Either may be nil; an id it cannot
// name is shown as the event gives it.
type Names struct {
	Request func(id string) (number, title string, ok bool)
	Person  func(id string) (name string, ok bool)
}

// Entry is an event as a feed shows it.
type Entry struct {
	Event  client.Event
	Actor  string // the actor's name, else email; "system" for none
	Number string // the request's number; "" for an event about the deal
	Title  string // the request's title, when known
	What   string // what happened, e.g. "moved open → partial"
}

// Describe builds the feed entry of ev.
func Describe(ev client.Event, n Names) Entry {
	e := Entry{Event: ev, Actor: ActorName(ev)}
	f := data(ev.Data)
	if ev.RequestID != nil && *ev.RequestID != "" {
		id := *ev.RequestID
		// The number the event was recorded with, when the list no
		// longer has the request (or this reader cannot see it).
		e.Number = f.str("number")
		if e.Number == "" {
			e.Number = "#" + shortID(id)
		}
		if n.Request != nil {
			if num, title, ok := n.Request(id); ok {
				e.Number, e.Title = num, title
			}
		}
	}
	e.What = what(ev.Type, f, n)
	return e
}

// ActorName is who did ev: their name, else their email, else "system".
func ActorName(ev client.Event) string {
	a := ev.Actor
	switch {
	case a == nil:
		return "system"
	case a.Name != nil && *a.Name != "":
		return *a.Name
	case a.Email != "":
		return a.Email
	}
	return "someone"
}

// Line is e on one line without the time: "Alice Sato  1.1 Certificate
// of incorporation: moved open → partial".
func (e Entry) Line() string {
	var b strings.Builder
	b.WriteString(e.Actor)
	b.WriteString("  ")
	if e.Number != "" {
		b.WriteString(e.Number)
		if e.Title != "" {
			b.WriteString(" " + e.Title)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.What)
	return b.String()
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// fields is an event's data, decoded loosely: a server may add fields,
// and a type dealctl does not know is shown from whatever it carries.
type fields map[string]any

func data(raw json.RawMessage) fields {
	var f fields
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &f) // data that is not an object shows as nothing
	}
	return f
}

// str is the string under the first of keys that holds one.
func (f fields) str(keys ...string) string {
	for _, k := range keys {
		if s, ok := f[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

func (f fields) flag(key string) bool {
	b, _ := f[key].(bool)
	return b
}

// has reports whether key is present, null included.
func (f fields) has(key string) bool {
	_, ok := f[key]
	return ok
}

// person names the person under key: an Author-shaped object, or an id
// the Names know, or the id itself.
func (f fields) person(n Names, keys ...string) string {
	for _, k := range keys {
		switch v := f[k].(type) {
		case map[string]any:
			if s, _ := v["name"].(string); s != "" {
				return s
			}
			if s, _ := v["email"].(string); s != "" {
				return s
			}
		case string:
			if v == "" {
				continue
			}
			if n.Person != nil {
				if name, ok := n.Person(v); ok {
					return name
				}
			}
			return v
		}
	}
	return ""
}

// fileName is the file an event is about.
func (f fields) fileName() string {
	if s := f.str("name"); s != "" {
		return s
	}
	if f.has("name") { // null: an administrator withheld the name
		return "a withheld file"
	}
	if s := f.str("version_id"); s != "" {
		return "file " + shortID(s)
	}
	return "a file"
}

func what(t api.EventType, f fields, n Names) string {
	switch t {
	case RequestCreated:
		if f.str("kind") == "section" {
			return "created the section"
		}
		return "created the request"
	case RequestEdited:
		return edited(f)
	case RequestAssigned:
		if who := f.person(n, "to"); who != "" {
			return "assigned it to " + who
		}
		return "left it unassigned"
	case DueDateSet:
		if due := f.str("to"); due != "" {
			return "set the due date to " + due
		}
		return "cleared the due date"
	case StatusMoved:
		from, to := f.str("from"), f.str("to")
		if from == "" {
			return "moved it to " + to
		}
		return "moved " + from + " → " + to
	case RequestDeleted:
		if f.str("kind") == "section" {
			return "deleted the section"
		}
		return "deleted the request"
	case MessagePosted:
		return posted(f)
	case FileAttached:
		return "attached " + f.fileName()
	case DownloadLinkIssued:
		return "took a download link for " + f.fileName()
	case FileFetched:
		return "downloaded " + f.fileName()
	}
	return unknown(string(t), f)
}

func edited(f fields) string {
	var names []string
	switch v := f["fields"].(type) {
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				names = append(names, s)
			}
		}
	case map[string]any:
		for k := range v {
			names = append(names, k)
		}
		sort.Strings(names)
	}
	if len(names) == 0 {
		return "edited the request"
	}
	return "edited " + strings.Join(names, ", ")
}

func posted(f fields) string {
	kind := f.str("kind")
	var what string
	switch kind {
	case "", "response":
		what = "an answer"
		if f.flag("partial") {
			what = "a partial answer"
		}
	case "question":
		what = "a question"
	case "reference":
		what = "a reference"
	case "internal_note":
		what = "an internal note"
	default:
		what = "a " + strings.ReplaceAll(kind, "_", " ")
	}
	if f.flag("internal") && kind != "internal_note" {
		what += " (internal)"
	}
	return "posted " + what
}

// unknown shows an event type this release does not know by its name and
// its simple data fields, in a stable order.
func unknown(rawType string, f fields) string {
	keys := make([]string, 0, len(f))
	for k, v := range f {
		switch v.(type) {
		case string, bool, float64:
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, f[k])
	}
	s := strings.ReplaceAll(rawType, "_", " ")
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}
