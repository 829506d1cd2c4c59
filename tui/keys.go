package tui

import (
	"charm.land/bubbles/v2/key"
)

// keyMap is every key the program answers to, with its help line.
type keyMap struct {
	up, down, pgUp, pgDown, top, bottom key.Binding
	search, filter, pane, open, answer  key.Binding
	mine, overdue, priority, category   key.Binding
	order                               key.Binding
	status, download, deal, refresh     key.Binding
	activity, inbox                     key.Binding
	// In the inbox view, whose status line names them (the help screen
	// has no room left).
	heldPost, heldDiscard key.Binding
	help, quit, back      key.Binding

	// In the answer form; ctrl and alt spellings both work because some
	// terminals swallow one or the other.
	send, partial, kind, internal, discard key.Binding
}

func newKeyMap() keyMap {
	b := func(label, help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, help))
	}
	return keyMap{
		up:          b("↑ k", "up", "up", "k"),
		down:        b("↓ j", "down", "down", "j"),
		pgUp:        b("pgup ^b", "page up", "pgup", "ctrl+b"),
		pgDown:      b("pgdn ^f", "page down", "pgdown", "ctrl+f", "space"),
		top:         b("g home", "first row", "g", "home"),
		bottom:      b("G end", "last row", "G", "end"),
		search:      b("/", "search; /1.1 jumps to 1.1", "/"),
		filter:      b("f", "status: all→open→…", "f"),
		mine:        b("m", "mine: assigned to me", "m"),
		overdue:     b("!", "overdue only", "!"),
		priority:    b("p", "priority: all→low→…", "p"),
		category:    b("c", "category: all→…", "c"),
		order:       b("o", "sort: list→due→…", "o"),
		pane:        b("tab", "list ⇄ detail pane", "tab", "shift+tab"),
		open:        b("enter", "read the conversation", "enter"),
		answer:      b("a", "answer the request", "a"),
		status:      b("s", "move the status", "s"),
		download:    b("d", "download its file", "d"),
		deal:        b("D", "switch deal", "D"),
		refresh:     b("r", "refresh now", "r"),
		activity:    b("e", "activity: recent events", "e"),
		inbox:       b("i", "inbox: e-mailed replies", "i"),
		heldPost:    b("p", "inbox: post the reply for its sender", "p"),
		heldDiscard: b("x", "inbox: discard the reply", "x"),
		help:        b("?", "this help", "?"),
		quit:        b("q ^c", "quit", "q", "ctrl+c"),
		back:        b("esc", "back, clear search/filters", "esc"),
		send:        b("^s", "send", "ctrl+s"),
		partial:     b("^p M-p", "toggle partial", "ctrl+p", "alt+p"),
		kind:        b("^k M-k", "cycle the kind", "ctrl+k", "alt+k"),
		internal:    b("^t M-i", "toggle internal", "ctrl+t", "alt+i"),
		discard:     b("^x", "discard the draft", "ctrl+x"),
	}
}

// helpSection is one group of the help screen.
type helpSection struct {
	title string
	keys  []key.Binding
}

// helpSections are the help screen's groups, in order; the first
// helpLeft of them make the left column.
func (k keyMap) helpSections() []helpSection {
	return []helpSection{
		{"Move", []key.Binding{k.up, k.down, k.pgUp, k.pgDown, k.top, k.bottom, k.pane}},
		{"Find", []key.Binding{k.search, k.filter, k.mine, k.overdue, k.priority, k.category, k.order, k.back}},
		{"Act", []key.Binding{k.open, k.answer, k.status, k.download, k.activity, k.inbox, k.deal, k.refresh}},
		{"Answer form", []key.Binding{k.send, k.partial, k.kind, k.internal, k.discard}},
		{"", []key.Binding{k.help, k.quit}},
	}
}

const helpLeft = 2
