package sheets

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// UpdatedLayout is how a text export writes Updated: RFC 3339 in UTC to
// the microsecond, the server's own precision, so that import can tell a
// row changed on the deal a moment after it was exported from one that
// was not (seconds would hide a change made in the same second).
const UpdatedLayout = "2006-01-02T15:04:05.000000Z07:00"

// An export writes two columns that tell import which deal row a sheet
// row is and how fresh it was: ID (the request's id) and Updated (its
// updated_at, UTC). A foreign sheet may have columns of the same names
// holding its own references or dates, so an ID is only taken when it is
// shaped like the server's ids, and Updated only beside such an ID.

// FieldID and FieldUpdated are the export's identity columns. They are not
// in Fields: the export writes them after its read-only columns.
const (
	FieldID      Field = "id"
	FieldUpdated Field = "updated"
)

func init() {
	synonyms[normalizeHeader("ID")] = FieldID
	synonyms[normalizeHeader("Updated")] = FieldUpdated
	synonyms[normalizeHeader("Updated at")] = FieldUpdated
}

// updatedLayouts are the forms an Updated cell takes: as the csv export
// writes it, and as a spreadsheet re-saving that csv may rewrite it. The
// precision is how much of the time the form keeps.
var updatedLayouts = []struct {
	layout    string
	precision time.Duration
}{
	{"2006-01-02T15:04:05Z07:00", time.Second},
	{"2006-01-02 15:04:05", time.Second},
	{"2006-01-02T15:04:05", time.Second},
	{"2006-01-02 15:04", time.Minute},
}

// parseUpdated reads an Updated cell: RFC 3339 text (what the csv export
// writes, fractions of a second kept), a date-time without zone (UTC, as
// exported), or an Excel serial (what the xlsx export's date-time cell
// reads as raw, in the workbook's date system). It returns the time and
// the precision the cell keeps: a row changed on the server less than
// that after the cell's time cannot be told from the exported state.
func parseUpdated(cell string, date1904 bool) (time.Time, time.Duration, error) {
	s := strings.TrimSpace(cell)
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 1 && f < 2958466 {
		base := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
		if date1904 {
			base = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
		}
		// A double keeps today's serials to about a microsecond; the
		// millisecond is what can be trusted. Whole days are added apart,
		// as a Duration of centuries would overflow.
		days := math.Floor(f)
		ms := math.Round((f - days) * 86400 * 1000)
		return base.AddDate(0, 0, int(days)).Add(time.Duration(ms) * time.Millisecond), time.Millisecond, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		precision := time.Second
		if i := strings.IndexByte(s, '.'); i > 0 {
			digits := 0
			for _, c := range s[i+1:] {
				if c < '0' || c > '9' {
					break
				}
				digits++
			}
			for ; digits > 0 && precision > time.Nanosecond; digits-- {
				precision /= 10
			}
		}
		return t.UTC(), precision, nil
	}
	for _, l := range updatedLayouts {
		if t, err := time.Parse(l.layout, s); err == nil {
			return t.UTC(), l.precision, nil
		}
	}
	if t, precision, ok := parseSlashedUpdated(s); ok {
		return t, precision, nil
	}
	return time.Time{}, 0, fmt.Errorf("%q is not the time the export wrote: leave the export's Updated cells as they are (or delete the column to import the sheet as a foreign one)", s)
}

// readIdentity fills a row's ID and Updated from an export's columns.
func readIdentity(row *Row, get func(Field) string, date1904 bool) (Field, string) {
	id := get(FieldID)
	if !api.IsID(id) { // a foreign sheet's own reference, such as "DD-001"
		return "", ""
	}
	row.ID = strings.ToLower(id)
	v := get(FieldUpdated)
	if v == "" {
		return "", ""
	}
	t, precision, err := parseUpdated(v, date1904)
	if err != nil {
		return FieldUpdated, err.Error()
	}
	row.Updated, row.UpdatedPrecision = t, precision
	return "", ""
}

// slashedUpdatedLayouts are what Excel makes of an Updated cell when it
// re-saves an exported csv with a local date format.
var slashedUpdatedLayouts = []struct {
	layout    string
	precision time.Duration
}{
	{"1/2/2006 15:04:05", time.Second}, {"1/2/2006 15:04", time.Minute}, {"1/2/06 15:04", time.Minute},
	{"2/1/2006 15:04:05", time.Second}, {"2/1/2006 15:04", time.Minute}, {"2/1/06 15:04", time.Minute},
}

// parseSlashedUpdated reads a slashed date-time. When it reads both as
// month/day and as day/month, the earlier wins: an Updated read too
// early makes a conflict of a change that was not one, never the other
// way round.
func parseSlashedUpdated(s string) (time.Time, time.Duration, bool) {
	var best time.Time
	var precision time.Duration
	for _, l := range slashedUpdatedLayouts {
		t, err := time.Parse(l.layout, s)
		if err == nil && (best.IsZero() || t.Before(best)) {
			best, precision = t, l.precision
		}
	}
	return best, precision, !best.IsZero()
}
