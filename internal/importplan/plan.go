// Package importplan decides what `dealctl import` does with a sheet: it
// matches the sheet's rows against the deal's current list and plans,
// row by row, what to create, update or leave. It reads and writes
// nothing itself, so it is tested without a server or a command line.
//
// Its first rule is that an import never damages the deal: a row is
// matched by the export's ID before its number, a row never turns a
// section into a request or back, a row whose title has nothing in
// common with the deal row of its number is not written over it, and a
// row changed on the deal after the sheet's Updated keeps the deal's
// values (a conflict) unless the caller asks for the sheet's.
package importplan

import (
	"time"

	"github.com/dealctl/dealctl/exporters"
	"github.com/dealctl/dealctl/internal/api"
)

// What an Item does.
const (
	ActionCreate    = "create"
	ActionUpdate    = "update"
	ActionStatus    = "status"    // only the status moves (--apply-status)
	ActionConflict  = "conflict"  // left alone: changed on the deal since the sheet's Updated
	ActionUnchanged = "unchanged" // nothing to write
)

// How a sheet row was matched to a deal row.
const (
	MatchedByID     = "id"     // the export's ID column
	MatchedByNumber = "number" // the row's number
	MatchedByTitle  = "title"  // an unnumbered row, by title under the same section
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
	// Retitle lets a row retitle the deal row of its number even when the
	// two titles have nothing in common.
	Retitle bool
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
	Changes        []string          `json:"changes,omitempty"`   // fields an update sets
	Kept           []string          `json:"kept,omitempty"`      // blank cells that keep the deal's value
	Conflicts      []string          `json:"conflicts,omitempty"` // fields left as the deal has them
	Overwritten    bool              `json:"overwritten,omitempty"`
	StatusTo       api.RequestStatus `json:"status_to,omitempty"` // a status move (--apply-status)
	Done           bool              `json:"done,omitempty"`      // applied (or found applied)

	ID       string                `json:"-"` // the deal's row, once known
	ParentID string                `json:"-"` // the parent's id when it is on the deal and not in the sheet
	Create   api.DealRequestCreate `json:"-"` // the POST body of a create
	Update   api.DealRequestUpdate `json:"-"` // the PATCH body of an update
	Depth    int                   `json:"-"` // creates under other creates wait for them
}

// HasWrite reports whether the item calls the server.
func (it *Item) HasWrite() bool {
	return it.Action == ActionCreate || it.Action == ActionUpdate || it.Action == ActionStatus
}

// Absent is a row of the deal that the sheet does not mention.
type Absent struct {
	Number string          `json:"number"`
	Kind   api.RequestKind `json:"kind"`
	Title  string          `json:"title"`
}

// Conflict is one field of a row changed on the deal after the sheet's
// Updated, where the sheet says otherwise: the deal's value stays.
type Conflict struct {
	Row           int       `json:"row"`
	Number        string    `json:"number"`
	Field         string    `json:"field"`
	Sheet         string    `json:"sheet_value"`
	Server        string    `json:"server_value"`
	SheetUpdated  time.Time `json:"sheet_updated"`
	ServerUpdated time.Time `json:"server_updated"`
}

// Summary counts the plan.
type Summary struct {
	Create      int `json:"create"`
	Update      int `json:"update"`
	Unchanged   int `json:"unchanged"`
	StatusMoves int `json:"status_moves"` // every status move, alone or with an update or create
	Conflicts   int `json:"conflicts"`    // rows left alone
	Absent      int `json:"absent"`
	Warnings    int `json:"warnings"` // before the list was capped
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
	BlankCells string              `json:"blank_cells"`
	Under      string              `json:"under,omitempty"`
	Items      []*Item             `json:"plan"`
	Conflicts  []Conflict          `json:"conflicts"`
	Absent     []Absent            `json:"absent"`
	Notes      []string            `json:"notes"`
	Warnings   []string            `json:"warnings"`
	Problems   []exporters.Problem `json:"problems"`
	Summary    Summary             `json:"summary"`
	DryRun     bool                `json:"dry_run"`
	Applied    bool                `json:"applied"`
	// Forbidden lists the changes the caller's seat may not make; the
	// command adds what it learns from the server (may it create rows?).
	Forbidden []string `json:"-"`
}
