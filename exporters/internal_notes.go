package exporters

import (
	"fmt"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/english"
)

// An export is often sent to the other side: what the owning side posted
// internal (internal notes, internal answers, and the files and links
// given with them) stays out of it unless asked for (Export.Internal),
// and an export that holds any of it says so in words a reader cannot
// miss. Every writer goes through forWriting, so no format can forget.

// InternalBanner is what a file holding internal messages says, on its
// first line (md), on the Summary sheet and every printed page (xlsx).
const InternalBanner = "INTERNAL: this file holds the owning side's internal notes. Do not send it to the other side."

// InternalCounts is how much of the owning side's internal content an
// export holds: messages (with --with-messages), and on the rows the
// latest answers, files and links given with internal messages.
type InternalCounts struct {
	Messages, Answers, Files, Links int
}

// Any reports whether there is anything internal at all.
func (n InternalCounts) Any() bool { return n != InternalCounts{} }

// String names the counts in words, largest kinds first: "2 internal
// messages, 1 latest answer, 1 link".
func (n InternalCounts) String() string {
	var parts []string
	add := func(count int, one, many string) {
		if count > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count, english.Plural(count, one, many)))
		}
	}
	add(n.Messages, "internal message", "internal messages")
	add(n.Answers, "latest answer", "latest answers")
	add(n.Files, "file", "files")
	add(n.Links, "link", "links")
	return strings.Join(parts, ", ")
}

// isInternal reports whether a message is kept to its author's side.
func isInternal(m api.Message) bool {
	return m.Internal || m.Kind == api.MessageInternalNote
}

// internalIDs are the export's internal messages and the version ids of
// the files given with them: what marks a row's answer or file internal
// where the server did not (one that does not advertise the mark).
type internalIDs struct {
	messages, files map[string]bool
}

func (e *Export) internalIDs() internalIDs {
	ids := internalIDs{messages: map[string]bool{}, files: map[string]bool{}}
	for _, msgs := range e.conversations() {
		for _, m := range msgs {
			if !isInternal(m) {
				continue
			}
			ids.messages[m.ID] = true
			for _, f := range m.Files {
				ids.files[f.VersionID] = true
			}
		}
	}
	return ids
}

// conversations are the messages the export knows of, written or not.
func (e *Export) conversations() map[string][]api.Message {
	if e.Messages != nil {
		return e.Messages
	}
	return e.Conversations
}

func (ids internalIDs) answer(a *api.AnswerPreview) bool {
	return a != nil && (a.Internal || ids.messages[a.MessageID])
}

func (ids internalIDs) file(f api.File) bool { return f.Internal || ids.files[f.VersionID] }

// Internals counts what the export holds of the owning side's internal
// content: what forWriting leaves out unless Internal is set.
func (e *Export) Internals() InternalCounts {
	_, n := e.splitInternal()
	return n
}

// forWriting is the export a writer writes: e itself when it keeps
// internal content on purpose, else a copy without any of it.
func (e *Export) forWriting() *Export {
	if e.Internal {
		return e
	}
	shared, _ := e.splitInternal()
	return shared
}

// holdsInternal reports whether the file written will hold internal
// content, and so must carry the banner. A counterparty's export never
// does, whatever its flags: it never sees the owning side's notes.
func (e *Export) holdsInternal() bool { return e.Internal && e.Internals().Any() }

// splitInternal returns a copy of the export without internal content,
// and counts what it left out. A row whose latest answer was internal
// shows the newest shared answer instead where its conversation was
// fetched, and none where it was not (there is no telling which).
func (e *Export) splitInternal() (*Export, InternalCounts) {
	var n InternalCounts
	ids := e.internalIDs()
	if e.Messages != nil {
		n.Messages = len(ids.messages)
	}
	shared := *e
	shared.Rows = make([]api.DealRequest, len(e.Rows))
	kept := make(map[string][]api.Message, len(e.conversations()))
	for id, msgs := range e.conversations() {
		k := make([]api.Message, 0, len(msgs))
		for _, m := range msgs {
			if !isInternal(m) {
				k = append(k, m)
			}
		}
		kept[id] = k
	}
	if e.Messages != nil {
		shared.Messages = kept
	} else if e.Conversations != nil {
		shared.Conversations = kept
	}
	for i, r := range e.Rows {
		if ids.answer(r.LatestAnswer) {
			n.Answers++
			r.LatestAnswer = nil
			if msgs, fetched := kept[r.ID]; fetched {
				r.LatestAnswer = latestShared(msgs)
			}
		}
		files := make([]api.File, 0, len(r.Files))
		for _, f := range r.Files {
			switch {
			case !ids.file(f):
				files = append(files, f)
			case f.Kind == api.FileKindLink:
				n.Links++
			default:
				n.Files++
			}
		}
		r.Files = files
		shared.Rows[i] = r
	}
	return &shared, n
}

// internalBanner is the banner with the counts, for the places with room.
func (e *Export) internalBanner() string {
	return fmt.Sprintf("%s (%s.)", InternalBanner, e.Internals())
}

// latestShared is the preview of the newest response among msgs (oldest
// first), as the server builds latest_answer.
func latestShared(msgs []api.Message) *api.AnswerPreview {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Kind != api.MessageResponse {
			continue
		}
		return &api.AnswerPreview{MessageID: m.ID, Preview: domain.Preview(m.Text), Partial: m.Partial,
			Source: m.Source, Author: m.Author, PostedAt: m.PostedAt}
	}
	return nil
}
