package world

import "time"

// World is a parsed world file. Field names follow the file format.
type World struct {
	Organizations []Organization `json:"organizations" yaml:"organizations"`
	Users         []User         `json:"users" yaml:"users"`
	Deals         []Deal         `json:"deals" yaml:"deals"`
	Keys          []Key          `json:"keys" yaml:"keys"`

	// history makes Apply record the events of the messages and files it
	// adds (ApplyDemo sets it; a world file cannot).
	history bool
}

// Organization is a firm.
type Organization struct {
	Key  string `json:"key" yaml:"key"`
	Name string `json:"name" yaml:"name"`
}

// User is a person with an account; Organization is an organization key.
type User struct {
	Key          string  `json:"key" yaml:"key"`
	Name         *string `json:"name" yaml:"name"`
	Email        string  `json:"email" yaml:"email"`
	Organization string  `json:"organization" yaml:"organization"`
}

// Deal is a deal with its parties, people and request list.
type Deal struct {
	Key      string    `json:"key" yaml:"key"`
	Name     string    `json:"name" yaml:"name"`
	Codename string    `json:"codename" yaml:"codename"` // default: Name
	Timezone string    `json:"timezone" yaml:"timezone"` // default: UTC
	Archived bool      `json:"archived" yaml:"archived"`
	Parties  []Party   `json:"parties" yaml:"parties"`
	People   []Person  `json:"people" yaml:"people"`
	Requests []Request `json:"requests" yaml:"requests"`
}

// Party is one side of a deal.
type Party struct {
	Key          string  `json:"key" yaml:"key"`
	Side         string  `json:"side" yaml:"side"`
	Label        *string `json:"label" yaml:"label"`
	Owner        bool    `json:"owner" yaml:"owner"`
	Organization string  `json:"organization" yaml:"organization"`
}

// Person seats a user on a deal, on one party.
type Person struct {
	User         string `json:"user" yaml:"user"`
	Party        string `json:"party" yaml:"party"`
	Access       string `json:"access" yaml:"access"`
	Role         string `json:"role" yaml:"role"` // default: other
	ProjectAdmin bool   `json:"project_admin" yaml:"project_admin"`
	Joined       *bool  `json:"joined" yaml:"joined"` // default: true
	// Digest turns the person's daily digest on or off. Absent leaves it
	// as it is (on for a new person), so that re-applying a file keeps an
	// opt-out made with `dealctl admin digest off`.
	Digest *bool `json:"digest" yaml:"digest"`
}

// Request is a row of the list: a request or a section.
type Request struct {
	Number    string    `json:"number" yaml:"number"`
	Parent    string    `json:"parent" yaml:"parent"` // default: inferred from Number
	Kind      string    `json:"kind" yaml:"kind"`     // default: request
	Title     string    `json:"title" yaml:"title"`
	Body      string    `json:"body" yaml:"body"`
	Priority  string    `json:"priority" yaml:"priority"` // default: medium
	Category  string    `json:"category" yaml:"category"` // default: business
	Requester *string   `json:"requester" yaml:"requester"`
	DueDate   string    `json:"due_date" yaml:"due_date"` // YYYY-MM-DD, or relative: +7d, -3d, today
	Assignee  string    `json:"assignee" yaml:"assignee"` // a user key of a person on the deal
	Status    string    `json:"status" yaml:"status"`     // default: open
	Messages  []Message `json:"messages" yaml:"messages"`

	parentNumber string // resolved by Validate
}

// Message is a post in a request's conversation.
type Message struct {
	Author   string `json:"author" yaml:"author"` // a user key of a person on the deal
	Party    string `json:"party" yaml:"party"`   // for a message without an author
	Kind     string `json:"kind" yaml:"kind"`     // default: response
	Source   string `json:"source" yaml:"source"` // default: web
	Partial  bool   `json:"partial" yaml:"partial"`
	Internal bool   `json:"internal" yaml:"internal"`
	OnBehalf bool   `json:"on_behalf" yaml:"on_behalf"`
	Text     string `json:"text" yaml:"text"`
	PostedAt string `json:"posted_at" yaml:"posted_at"` // RFC 3339, or relative: -2d, -3h
	Links    []Link `json:"links" yaml:"links"`
	Files    []File `json:"files" yaml:"files"`
}

// Link is a link given with a message.
type Link struct {
	URL   string  `json:"url" yaml:"url"`
	Label *string `json:"label" yaml:"label"`
}

// File is a file given with a message: its bytes come from Path (relative
// to the world file's folder) or from Content.
type File struct {
	Name        string  `json:"name" yaml:"name"` // default: Path's base name
	ContentType string  `json:"content_type" yaml:"content_type"`
	Path        string  `json:"path" yaml:"path"`
	Content     *string `json:"content" yaml:"content"`
	Scanned     *bool   `json:"scanned" yaml:"scanned"` // default: true
}

// Key is an API key.
type Key struct {
	Key       string   `json:"key" yaml:"key"`
	User      string   `json:"user" yaml:"user"`
	Name      string   `json:"name" yaml:"name"` // default: Key
	Access    string   `json:"access" yaml:"access"`
	Deals     []string `json:"deals" yaml:"deals"` // deal keys; absent: every deal
	Secret    string   `json:"secret" yaml:"secret"`
	ExpiresAt string   `json:"expires_at" yaml:"expires_at"`
	ExpiresIn string   `json:"expires_in" yaml:"expires_in"`

	expiresAt *time.Time    // resolved by Validate
	expiresIn time.Duration // resolved by Validate; counted from the key's creation
}
