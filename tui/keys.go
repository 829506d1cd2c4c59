package tui

import (
	"github.com/charmbracelet/bubbles/key"
)

// keyMap is every key the program answers to, with its help line.
type keyMap struct {
	up, down, pgUp, pgDown, top, bottom key.Binding
	search, filter, pane, open, answer  key.Binding
	status, download, deal, refresh     key.Binding
	help, quit, back                    key.Binding

	// In the answer form; ctrl and alt spellings both work because some
	// terminals swallow one or the other.
	send, partial, kind, internal key.Binding
}

func newKeyMap() keyMap {
	b := func(label, help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, help))
	}
	return keyMap{
		up:       b("↑ k", "up", "up", "k"),
		down:     b("↓ j", "down", "down", "j"),
		pgUp:     b("pgup ^b", "page up", "pgup", "ctrl+b"),
		pgDown:   b("pgdn ^f", "page down", "pgdown", "ctrl+f", " "),
		top:      b("g home", "first row", "g", "home"),
		bottom:   b("G end", "last row", "G", "end"),
		search:   b("/", "search number, title, body", "/"),
		filter:   b("f", "status filter: all→open→…", "f"),
		pane:     b("tab", "list ⇄ detail pane", "tab", "shift+tab"),
		open:     b("enter", "read the conversation", "enter"),
		answer:   b("a", "answer the request", "a"),
		status:   b("s", "move the status", "s"),
		download: b("d", "download its file", "d"),
		deal:     b("D", "switch deal", "D"),
		refresh:  b("r", "refresh now", "r"),
		help:     b("?", "this help", "?"),
		quit:     b("q ^c", "quit", "q", "ctrl+c"),
		back:     b("esc", "back, clear search/filter", "esc"),
		send:     b("^s", "send", "ctrl+s"),
		partial:  b("^p M-p", "toggle partial", "ctrl+p", "alt+p"),
		kind:     b("^k M-k", "cycle the kind", "ctrl+k", "alt+k"),
		internal: b("^t M-i", "toggle internal", "ctrl+t", "alt+i"),
	}
}

// helpSections are the help screen's groups, in order.
func (k keyMap) helpSections() []struct {
	title string
	keys  []key.Binding
} {
	return []struct {
		title string
		keys  []key.Binding
	}{
		{"Move", []key.Binding{k.up, k.down, k.pgUp, k.pgDown, k.top, k.bottom, k.pane}},
		{"Find", []key.Binding{k.search, k.filter, k.back}},
		{"Act", []key.Binding{k.open, k.answer, k.status, k.download, k.deal, k.refresh}},
		{"Answer form", []key.Binding{k.send, k.partial, k.kind, k.internal}},
		{"", []key.Binding{k.help, k.quit}},
	}
}
