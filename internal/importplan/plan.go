// Package importplan decides what `dealctl import` does with a sheet: it
// matches the sheet's rows against the deal's current list and plans,
// row by row, what to create, update or leave. It reads and writes
// nothing itself, so it is tested without a server or a command line.
//
// Its first rule is that an import never damages the deal, and it
// matches by identity, never by guess: a row updates a deal row only by
// the export's ID, or by number where the caller says so (--match
// number). By default a row whose number is on the deal with other
// content is a conflict, left alone; a row never turns a section into a
// request or back; and a row changed on the deal after the sheet's
// Updated keeps the deal's values (a conflict) unless the caller asks
// for the sheet's.
package importplan

import (
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

// What an Item does.
const (
	ActionCreate    = "create"
	ActionUpdate    = "update"
	ActionStatus    = "status"    // only the status moves (--apply-status)
	ActionConflict  = "conflict"  // left alone: see Conflict.Reason
	ActionUnchanged = "unchanged" // nothing to write
)

// How a sheet row was matched to a deal row.
const (
	MatchedByID     = "id"     // the export's ID column
	MatchedByNumber = "number" // the row's number
	MatchedByTitle  = "title"  // an unnumbered row, by its exact title under the same section
)

// Why a row was left alone as a conflict.
const (
	// ConflictChangedSince: a row of an export, changed on the deal after
	// the sheet's Updated.
	ConflictChangedSince = "changed_since_export"
	// ConflictNumberTaken: a row without this deal's ID whose number is on
	// the deal with other content, in a run without --match number.
	ConflictNumberTaken = "number_taken"
)

// How rows without one of this deal's IDs are matched (--match).
const (
	MatchID     = "id"     // they only create; a taken number is a conflict
	MatchNumber = "number" // they update the deal row of their number
)

// Options are the caller's choices; the zero value is the safe one.
type Options struct {
	// ApplyStatus moves statuses to the sheet's, where allowed.
	ApplyStatus bool
	// Overwrite takes the sheet's values on rows changed on the deal
	// after the sheet's Updated, instead of leaving them as conflicts.
	Overwrite bool
	// ClearBlanks makes a blank cell of a sheet without Updated clear the
	// deal's value (body, requester, due date, assignee); by default it
	// keeps it.
	ClearBlanks bool
	// MatchNumber lets a row without one of this deal's IDs update the
	// deal row of its number (--match number). Without it such a row only
	// creates: a taken number with other content is a conflict.
	MatchNumber bool
	// Renumber gives each row that collides with the deal row of its
	// number (other content, or another kind) the next free number of its
	// section instead, with the sheet rows under it.
	Renumber bool
	// Under is a section of the deal the sheet's rows are put under: the
	// sheet's 1, 1.1 become Under.1, Under.1.1.
	Under string
}

// Item is what import will do with one sheet row.
type Item struct {
	Row            int               `json:"row"`
	Action         string            `json:"action"`
	Number         string            `json:"number"`
	NumberAssigned bool              `json:"number_assigned,omitempty"` // the sheet gave none
	SheetNumber    string            `json:"sheet_number,omitempty"`    // the sheet's own, when --under changed it
	MatchedBy      string            `json:"matched_by,omitempty"`      // id, number or title; empty for a create
	Kind           api.RequestKind   `json:"kind"`
	Title          string            `json:"title"`
	Parent         string            `json:"parent,omitempty"`
	Changes        []string          `json:"changes,omitempty"`         // fields an update sets
	Diffs          []FieldChange     `json:"diffs,omitempty"`           // each change, old → new
	Kept           []string          `json:"kept,omitempty"`            // blank cells that keep the deal's value
	Conflicts      []string          `json:"conflicts,omitempty"`       // fields left as the deal has them
	ConflictReason string            `json:"conflict_reason,omitempty"` // see Conflict.Reason
	Overwritten    bool              `json:"overwritten,omitempty"`
	StatusTo       api.RequestStatus `json:"status_to,omitempty"` // a status move (--apply-status)
	Done           bool              `json:"done,omitempty"`      // applied (or found applied)
	// Answer is the sheet's answer to post on the row, as a message with
	// source import; "" when the row has none, or the deal has it already
	// (an earlier import posted it: SettleAnswers).
	Answer       string `json:"answer,omitempty"`
	AnswerPosted bool   `json:"answer_posted,omitempty"` // posted (or found posted) by this run

	ID       string                `json:"-"` // the deal's row, once known
	DealRow  *api.DealRequest      `json:"-"` // the deal's row as the plan read it; nil for a create
	ParentID string                `json:"-"` // the parent's id when it is on the deal and not in the sheet
	Create   api.DealRequestCreate `json:"-"` // the POST body of a create
	Update   api.DealRequestUpdate `json:"-"` // the PATCH body of an update
	Depth    int                   `json:"-"` // creates under other creates wait for them
}

// HasWrite reports whether the item calls the server.
func (it *Item) HasWrite() bool {
	return it.Action == ActionCreate || it.Action == ActionUpdate || it.Action == ActionStatus
}

// FieldChange is one field an update writes, as the deal has it and as
// the sheet would make it (people's emails for an assignee).
type FieldChange struct {
	Field string `json:"field"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// Absent is a row of the deal that the sheet does not mention.
type Absent struct {
	Number string          `json:"number"`
	Kind   api.RequestKind `json:"kind"`
	Title  string          `json:"title"`
}

// Conflict is one field of a row left alone where the sheet says
// otherwise than the deal: the deal's value stays. Reason says why: the
// row changed on the deal after the sheet's Updated (both times given),
// or a row without this deal's ID met another row on its number.
type Conflict struct {
	Row           int       `json:"row"`
	Number        string    `json:"number"`
	Reason        string    `json:"reason"`
	Field         string    `json:"field"`
	Sheet         string    `json:"sheet_value"`
	Server        string    `json:"server_value"`
	SheetUpdated  time.Time `json:"sheet_updated,omitzero"`
	ServerUpdated time.Time `json:"server_updated,omitzero"`
}

// Summary counts the plan.
type Summary struct {
	Create      int `json:"create"`
	Update      int `json:"update"`
	Unchanged   int `json:"unchanged"`
	StatusMoves int `json:"status_moves"` // every status move, alone or with an update or create
	Conflicts   int `json:"conflicts"`    // rows left alone
	// NumberTaken counts the conflicts of rows whose number is on the
	// deal with other content (Conflict.Reason number_taken).
	NumberTaken int `json:"number_taken"`
	// ByNumber counts the updates and status moves of rows matched by
	// number or title (--match number): the ones a run asks about.
	ByNumber int `json:"by_number"`
	Absent   int `json:"absent"`
	Warnings int `json:"warnings"` // before the list was capped
	// Answers counts the sheet's answers to post; AnswersOnDeal those an
	// earlier import already posted, which are not posted again.
	Answers       int `json:"answers"`
	AnswersOnDeal int `json:"answers_on_deal"`
}

// Plan is what `import --dry-run -o json` prints, and what import
// applies.
type Plan struct {
	Deal      string            `json:"deal"`
	File      string            `json:"file"`
	Sheet     string            `json:"sheet,omitempty"`
	HeaderRow int               `json:"header_row"`
	Columns   map[string]string `json:"columns"` // field -> header as written
	Ignored   []string          `json:"ignored_columns"`
	// Exported is true when the sheet carries the export's ID and Updated
	// columns: its rows match by ID and changes made on the deal since
	// are protected.
	Exported bool `json:"exported"`
	// BlankCells says what a blank body, requester, due date or assignee
	// cell does to a deal row: "clear" or "keep". Rows of an export
	// always clear (the export wrote what the deal had).
	BlankCells string `json:"blank_cells"`
	// Match is how rows without one of this deal's IDs match: "id" (they
	// only create) or "number" (--match number).
	Match      string `json:"match"`
	Under      string `json:"under,omitempty"`
	Renumbered bool   `json:"renumbered,omitempty"` // --renumber moved colliding rows
	// Collisions are the sheet rows whose number is on the deal with
	// other content or as another kind: the rows --renumber moves.
	Collisions []int            `json:"collisions,omitempty"`
	Items      []*Item          `json:"plan"`
	Conflicts  []Conflict       `json:"conflicts"`
	Absent     []Absent         `json:"absent"`
	Notes      []string         `json:"notes"`
	Warnings   []string         `json:"warnings"`
	Problems   []sheets.Problem `json:"problems"`
	Summary    Summary          `json:"summary"`
	DryRun     bool             `json:"dry_run"`
	Applied    bool             `json:"applied"`
	// Forbidden lists the changes the caller's seat may not make; the
	// command adds what it learns from the server (may it create rows?).
	Forbidden []string `json:"-"`
}
