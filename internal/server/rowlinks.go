package server

import (
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// rowFiles is what a row (DealRequest) carries of the files and links
// given in answer to its request: every file (only administrators attach
// them), and the newest links up to api.MaxRowLinks and
// api.MaxRowLinkChars of url and label together, in their order. Links
// are what either side adds with each post, up to 20 a post; without a
// bound the counterparty could make every reader's list as large as it
// likes (47 MB in a review). It returns how many links were left out:
// they stay on their messages, in the conversation.
func rowFiles(files []store.File) (kept []store.File, omitted int) {
	keep := make([]bool, len(files))
	links, chars := 0, 0
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		if f.Kind != api.FileKindLink {
			keep[i] = true
			continue
		}
		size := linkChars(f)
		if omitted == 0 && links < api.MaxRowLinks && chars+size <= api.MaxRowLinkChars {
			keep[i] = true
			links++
			chars += size
			continue
		}
		// Once one link is left out, every older one is too: the row
		// shows the newest, without a gap.
		omitted++
	}
	if omitted == 0 {
		return files, 0
	}
	kept = make([]store.File, 0, len(files)-omitted)
	for i, f := range files {
		if keep[i] {
			kept = append(kept, f)
		}
	}
	return kept, omitted
}

// linkChars is what a link weighs against api.MaxRowLinkChars.
func linkChars(f store.File) int {
	n := 0
	if f.URL != nil {
		n += utf8.RuneCountInString(*f.URL)
	}
	if f.Name != nil {
		n += utf8.RuneCountInString(*f.Name)
	}
	return n
}
