package mailin

import (
	"regexp"
	"strings"
)

// Where a reply's own words end. Mail clients mark the history they
// quote in a handful of ways; the first marker found ends the reply.
var (
	// "On Tue, 3 Mar 2026 at 10:00, Ana <ana@x> wrote:" (Gmail, Apple
	// Mail, Thunderbird), possibly wrapped over two lines.
	onWrote = regexp.MustCompile(`(?i)^(on|le|am|el|il|op)\b.*\b(wrote|a écrit|schrieb|escribió|ha scritto|schreef)\s*:?\s*$`)
	onStart = regexp.MustCompile(`(?i)^(on|le|am|el|il|op)\b`)
	// Outlook's "-----Original Message-----" and its underscore rule.
	originalMessage = regexp.MustCompile(`(?i)^-{2,}\s*original message\s*-{2,}$|^_{20,}$`)
	// Outlook's header block of the message quoted: "From: …" followed by
	// "Sent:" or "Date:" within two lines.
	headerFrom = regexp.MustCompile(`(?i)^\*?(from|von|de)\s*:\*?\s+\S`)
	headerNext = regexp.MustCompile(`(?i)^\*?(sent|date|gesendet|envoyé|to)\s*:`)
	// What phones add at the end.
	sentFrom = regexp.MustCompile(`(?i)^(sent from my |get outlook for |envoyé de mon )`)
	// A forwarded message is kept: its text is often the answer itself
	// (the accountant's reply, forwarded). Its own header block must not
	// read as quoted history.
	forwarded = regexp.MustCompile(`(?i)^-{2,}\s*(forwarded message|begin forwarded message|weitergeleitete nachricht|message transféré)\s*-{0,}\s*:?$|^begin forwarded message:$`)
)

// Clean is the reply's own text: lines as they came (CRLF made LF),
// quoted history and the signature cut, trailing blank lines dropped.
// Quoted lines (">") at the end go; quoted lines between the sender's own
// are kept, since an inline reply reads only with them.
func Clean(text string) string {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(text, "\n")
	end := len(lines)
	inForward := false
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if forwarded.MatchString(t) {
			inForward = true
			continue
		}
		if inForward {
			continue // a forwarded message is kept whole
		}
		if line == "-- " || t == "--" || originalMessage.MatchString(t) || sentFrom.MatchString(t) || onWrote.MatchString(t) {
			end = i
			break
		}
		// "On …, Ana <ana@x>" + "wrote:" on the next line.
		if i+1 < len(lines) && onStart.MatchString(t) && onWrote.MatchString(t+" "+strings.TrimSpace(lines[i+1])) {
			end = i
			break
		}
		if headerFrom.MatchString(t) && nextHeader(lines[i+1:]) {
			end = i
			break
		}
	}
	lines = lines[:end]
	// Drop the quote the history leaves at the end, and blank lines.
	for len(lines) > 0 {
		t := strings.TrimSpace(lines[len(lines)-1])
		if t != "" && !strings.HasPrefix(t, ">") {
			break
		}
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimLeft(strings.Join(lines, "\n"), "\n")
}

// nextHeader: one of the next two lines is a quoted header's Sent: or
// Date:.
func nextHeader(rest []string) bool {
	for i := 0; i < len(rest) && i < 2; i++ {
		if headerNext.MatchString(strings.TrimSpace(rest[i])) {
			return true
		}
	}
	return false
}
