package exporters

import (
	"fmt"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/api"
)

// An export is often sent to the other side: the owning side's internal
// messages (kind internal_note, or any message posted internal) stay out
// of it unless asked for, and an export that holds them says so in words
// a reader cannot miss.

// InternalBanner is what a file holding internal messages says, on its
// first line (md), on the Summary sheet and every printed page (xlsx).
const InternalBanner = "INTERNAL: this file holds the owning side's internal notes. Do not send it to the other side."

// isInternal reports whether a message is kept to its author's side.
func isInternal(m api.Message) bool {
	return m.Internal || m.Kind == api.MessageInternalNote
}

// DropInternal removes internal messages from the export, with what they
// show on their requests' rows: a latest answer that was an internal
// response gives way to the newest shared one, and files and links given
// with internal messages leave the Files and Links cells. It returns how
// many messages it removed, and how many latest answers it cleared on
// rows without fetched messages: there the server's "internal" mark on
// the preview is all there is to go by (nothing marks their files yet).
func (e *Export) DropInternal() (messages, answers int) {
	dropped := 0
	for i := range e.Rows {
		r := &e.Rows[i]
		msgs, ok := e.Messages[r.ID]
		if !ok {
			if r.LatestAnswer != nil && r.LatestAnswer.Internal {
				r.LatestAnswer = nil
				answers++
			}
			continue
		}
		kept := make([]api.Message, 0, len(msgs))
		gone := map[string]bool{}      // internal message ids
		goneFiles := map[string]bool{} // their file version ids
		for _, m := range msgs {
			if !isInternal(m) {
				kept = append(kept, m)
				continue
			}
			dropped++
			gone[m.ID] = true
			for _, f := range m.Files {
				goneFiles[f.VersionID] = true
			}
		}
		if len(gone) == 0 {
			continue
		}
		e.Messages[r.ID] = kept
		files := make([]api.File, 0, len(r.Files))
		for _, f := range r.Files {
			if !goneFiles[f.VersionID] {
				files = append(files, f)
			}
		}
		r.Files = files
		if r.LatestAnswer != nil && gone[r.LatestAnswer.MessageID] {
			r.LatestAnswer = latestShared(kept)
		}
	}
	return dropped, answers
}

// InternalCount is how many internal messages the export holds.
func (e *Export) InternalCount() int {
	n := 0
	for _, msgs := range e.Messages {
		for _, m := range msgs {
			if isInternal(m) {
				n++
			}
		}
	}
	return n
}

// internalBanner is the banner with the count, for the places with room.
func (e *Export) internalBanner() string {
	return fmt.Sprintf("%s (%d internal messages.)", InternalBanner, e.InternalCount())
}

// latestShared is the preview of the newest response among msgs (oldest
// first), as the server builds latest_answer.
func latestShared(msgs []api.Message) *api.AnswerPreview {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Kind != api.MessageResponse {
			continue
		}
		return &api.AnswerPreview{MessageID: m.ID, Preview: previewOf(m.Text), Partial: m.Partial,
			Source: m.Source, Author: m.Author, PostedAt: m.PostedAt}
	}
	return nil
}

// previewOf cuts text as the API cuts latest_answer.preview.
func previewOf(text string) string {
	if utf8.RuneCountInString(text) <= api.MaxPreviewLen {
		return text
	}
	return string([]rune(text)[:api.MaxPreviewLen-1]) + "…"
}
