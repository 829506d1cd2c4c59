package cli

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/sheets"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// addReadFlags adds the flags that say how to read what people write in
// a sheet: its encoding, its date order, and its own words for values.
func addReadFlags(cmd *cobra.Command, o *ImportOptions) {
	fl := cmd.Flags()
	fl.StringVar(&o.Encoding, "encoding", "", "the text file's encoding `NAME`: windows-1252, macintosh, utf-16le, ... (default: its byte-order mark, else UTF-8, else Windows-1252 with a note)")
	fl.StringVar(&o.DateOrder, "date-order", "", "the `ORDER` of slashed dates: dmy (03/04/2026 is 3 April) or mdy (March 4) (default: what the column's unambiguous dates show)")
	fl.StringArrayVar(&o.Maps, "map", nil, "`FIELD:TEXT=VALUE` reads TEXT in FIELD's column as VALUE, e.g. category:Regulatory=legal; an empty VALUE is blank; FIELD=COLUMN reads the column headed COLUMN (or column letter) as FIELD, e.g. number=Pos. (repeatable)")
	_ = cmd.RegisterFlagCompletionFunc("date-order", cobra.FixedCompletions([]string{"dmy\t03/04/2026 is 3 April", "mdy\t03/04/2026 is March 4"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("encoding", cobra.FixedCompletions([]string{"utf-8", "windows-1252", "macintosh", "iso-8859-2", "iso-8859-15", "utf-16le", "utf-16be"}, cobra.ShellCompDirectiveNoFileComp))
}

// readOptions checks the read flags before anything is read or called:
// a mistake in one is a usage error (exit 2).
func (o *ImportOptions) readOptions() (sheets.ReadOptions, error) {
	ro := sheets.ReadOptions{Sheet: o.Sheet, Encoding: o.Encoding, Map: sheets.ValueMap{}}
	if o.Encoding != "" {
		if err := sheets.CheckEncoding(o.Encoding); err != nil {
			return ro, cmdutil.UsageErrorf("--encoding: %v", err)
		}
	}
	order, err := sheets.ParseDateOrder(o.DateOrder)
	if err != nil {
		return ro, cmdutil.UsageErrorf("--date-order: %v", err)
	}
	ro.DateOrder = order
	for _, spec := range o.Maps {
		if err := ro.Map.Add(spec); err != nil {
			return ro, cmdutil.UsageErrorf("%v", err)
		}
	}
	return ro, nil
}

// readSheet reads the file as the flags say and tells the user how it
// was read where dealctl had to decide (an encoding, a date order, hidden
// rows left out).
func (o *ImportOptions) readSheet() (*sheets.Sheet, error) {
	ro, err := o.readOptions()
	if err != nil {
		return nil, err
	}
	sheet, err := sheets.ReadFile(o.File, ro)
	if err != nil {
		return nil, readError(err)
	}
	for _, n := range sheet.Notes {
		o.Infof("note: %s", termsafe.Line(n)) // notes quote the sheet's own text
	}
	return sheet, nil
}

// unreadableContent reports a file whose content cannot be read as a
// list (its bytes are not text in any one encoding, or no row names the
// columns): invalid input, exit 6, rather than a usage mistake.
func unreadableContent(err error) bool {
	var ee *sheets.EncodingError
	var he *sheets.HeaderError
	return errors.As(err, &ee) || errors.As(err, &he)
}
