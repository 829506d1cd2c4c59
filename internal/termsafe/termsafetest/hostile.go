// Package termsafetest holds what the tests of every printer share
// about text meant to act on a terminal. Only tests import it, so none
// of it ships in the binary.
package termsafetest

import "strings"

// Hostile is a table of strings a counterparty or an owner might put in
// a title, body, message or name to act on the reader's terminal. It is
// a package of its own, not a test file, so that every printer's tests
// (CLI tables, Markdown, the TUI) range over the same cases.
var Hostile = []struct{ Name, Text string }{
	{"OSC 52 clipboard write", "Accounts\x1b]52;c;cm0gLXJmIH4K\x07 attached"},
	{"OSC 52 with ST", "x\x1b]52;c;ZWNobyBoaQ==\x1b\\y"},
	{"OSC 8 hidden link", "\x1b]8;;https://evil.example/\x1b\\click here\x1b]8;;\x1b\\"},
	{"OSC 0 window title", "\x1b]0;sudo rm -rf\x07title"},
	{"CSI clear screen", "\x1b[2J\x1b[Hfake prompt$ "},
	{"CSI colour", "\x1b[31mred\x1b[0m"},
	{"C1 CSI", "a\u009b2Jb"},
	{"C1 OSC", "a\u009d0;title\u009cb"},
	{"raw C1 byte", "a\x9b2Jb"},
	{"bidi override", "invoice_\u202egnp.exe"},
	{"bidi isolate", "a\u2066b\u2069c"},
	{"bell and backspace", "ok\x07\x08\x08\x08bad"},
	{"carriage return overwrite", "approved\rREJECTED"},
	{"DEL", "a\x7fb"},
	{"Markdown character reference to ESC", "shown &#27;[8mhidden&#x1b;[0m text"},
	{"NUL", "a\x00b"},
}

// RenderBombs are messages built to make a Markdown renderer work without
// end (the second security review: 300 nested quotes in 301 bytes took
// minutes and gigabytes, deaf to Ctrl-C). Every renderer's tests show
// them and expect the text back, bounded. Each fits in a message (20,000
// characters).
var RenderBombs = []struct{ Name, Text string }{
	{"quotes 300", strings.Repeat(">", 300) + "x"},
	{"spaced quotes 250", strings.Repeat("> ", 250) + "x"},
	{"list 80 deep", nestedList(80)},
	{"quotes and lists", strings.Repeat("> - ", 120) + "x"},
	{"setext headings", strings.Repeat("x\n===\n", 3000)},
	{"emphasis run", strings.Repeat("*a **b", 3000)},
	{"links", strings.Repeat("[a](https://e.example/"+strings.Repeat("x", 50)+") ", 300)},
	{"wide table", "|" + strings.Repeat("a|", 300) + "\n|" + strings.Repeat("-|", 300) + "\n" + strings.Repeat("|"+strings.Repeat("b|", 300)+"\n", 30)},
}

func nestedList(depth int) string {
	var b strings.Builder
	for i := 0; i < depth; i++ {
		b.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	return b.String()
}
