package cli

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/domain"
)

// RequestFilterFlags are the filters `requests ls` and `search` both
// take, with the same names, help, checks and errors: this is their one
// home. They are read into a domain.ListFilter, whose Keep applies them
// as dealctl mcp's list_requests applies its arguments. The API shows no
// query filters (docs/decisions.md makes them an optional extension):
// where the server advertises list-filters it is asked to pre-filter by
// what it can (client.QueryOf), and Keep still runs on its answer.
type RequestFilterFlags struct {
	Statuses   []string
	Priorities []string
	Categories []string
	Assignee   string // me, an email, a name, an id, or none
	Section    string // a section's number or id
	Overdue    bool
	DueBefore  string

	flags *pflag.FlagSet // where they were given, to tell a blank value from none
}

// addFlags registers the filters on cmd; subject is what they keep
// ("requests", "hits on requests"), which the help names.
func (ff *RequestFilterFlags) addFlags(f *Factory, cmd *cobra.Command, subject string) {
	fl := cmd.Flags()
	ff.flags = fl
	fl.StringSliceVar(&ff.Statuses, "status", nil, "only "+subject+" of these statuses (open,partial,complete)")
	fl.StringSliceVar(&ff.Priorities, "priority", nil, "only "+subject+" of these priorities (low,medium,high)")
	fl.StringSliceVar(&ff.Categories, "category", nil, "only "+subject+" of these categories")
	fl.StringVar(&ff.Assignee, "assignee", "", "only "+subject+" assigned to me, EMAIL, NAME, or none")
	fl.StringVar(&ff.Section, "section", "", "only "+subject+" under this section number")
	fl.BoolVar(&ff.Overdue, "overdue", false, "only "+subject+" due before today and not complete")
	fl.StringVar(&ff.DueBefore, "due-before", "", "only "+subject+" due before DATE (YYYY-MM-DD, today, tomorrow)")
	_ = cmd.RegisterFlagCompletionFunc("status", enumCompletion(api.RequestStatuses))
	_ = cmd.RegisterFlagCompletionFunc("priority", enumCompletion(api.Priorities))
	_ = cmd.RegisterFlagCompletionFunc("category", enumCompletion(api.RequestCategories))
	_ = cmd.RegisterFlagCompletionFunc("assignee", completePeople(f, "me", "none"))
	_ = cmd.RegisterFlagCompletionFunc("section", completeRequests(f, api.KindSection))
}

// parse checks what needs no call — the enumerations and the form of
// --due-before — so that a typo costs none, and returns the filter as
// far as it goes without the deal (see resolveOnDeal, resolveSection).
func (ff *RequestFilterFlags) parse() (domain.ListFilter, error) {
	var flt domain.ListFilter
	if err := ff.refuseBlank(); err != nil {
		return flt, err
	}
	var err error
	if flt.Statuses, err = parseEnumList("status", ff.Statuses, api.RequestStatuses); err != nil {
		return flt, err
	}
	if flt.Priorities, err = parseEnumList("priority", ff.Priorities, api.Priorities); err != nil {
		return flt, err
	}
	if flt.Categories, err = parseEnumList("category", ff.Categories, api.RequestCategories); err != nil {
		return flt, err
	}
	if ff.DueBefore != "" {
		if err := checkDay("--due-before", ff.DueBefore); err != nil {
			return flt, err
		}
	}
	return flt, nil
}

// refuseBlank refuses a filter given with nothing in it (--status "",
// an unset variable in a script): read as no filter, it would list
// everything, and --exit-code would report a match.
func (ff *RequestFilterFlags) refuseBlank() error {
	if ff.flags == nil {
		return nil
	}
	for _, f := range []struct {
		name  string
		blank bool
		give  string // what a value is
	}{
		{"status", blankList(ff.Statuses), "one or more of " + joinEnum(api.RequestStatuses)},
		{"priority", blankList(ff.Priorities), "one or more of " + joinEnum(api.Priorities)},
		{"category", blankList(ff.Categories), "one or more of " + joinEnum(api.RequestCategories)},
		{"assignee", strings.TrimSpace(ff.Assignee) == "", "me, an e-mail, a name or none"},
		{"section", strings.TrimSpace(ff.Section) == "", "a section's number, like 2"},
		{"due-before", strings.TrimSpace(ff.DueBefore) == "", "a date (YYYY-MM-DD, today, tomorrow)"},
	} {
		if f.blank && ff.flags.Changed(f.name) {
			return cmdutil.UsageErrorf("--%s was given an empty value: give %s, or leave the flag out", f.name, f.give)
		}
	}
	return nil
}

// blankList reports whether a list flag's values name nothing: none,
// or only spaces and commas (--status "$A,$B" with both unset).
func blankList(values []string) bool {
	return strings.Trim(strings.Join(values, ","), ", \t") == ""
}

// given reports whether any of the filters is given; --overdue and
// the others that need the deal are in the filter only once resolveOnDeal
// has run.
func (ff *RequestFilterFlags) given() bool {
	return len(ff.Statuses) > 0 || len(ff.Priorities) > 0 || len(ff.Categories) > 0 || ff.Assignee != "" ||
		ff.Section != "" || ff.Overdue || ff.DueBefore != ""
}

// onClientOnly is the filters given that only the client applies (the
// list-filters and search extensions have no section or due-date
// filter), as typed: --section, --overdue, --due-before.
func (ff *RequestFilterFlags) onClientOnly() []string {
	var given []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"--section", ff.Section != ""}, {"--overdue", ff.Overdue}, {"--due-before", ff.DueBefore != ""}} {
		if f.set {
			given = append(given, f.name)
		}
	}
	return given
}

// onServer is the filters given that the server's search applies, as
// typed (--status open,partial): a search they leave nothing of says so.
func (ff *RequestFilterFlags) onServer() []string {
	var given []string
	for _, f := range []struct {
		name   string
		values []string
	}{{"--status", ff.Statuses}, {"--priority", ff.Priorities}, {"--category", ff.Categories}, {"--assignee", []string{ff.Assignee}}} {
		if v := strings.Join(f.values, ","); v != "" {
			given = append(given, f.name+" "+v)
		}
	}
	return given
}

// resolveOnDeal completes flt with what needs the deal: its today (in
// the deal's time zone) for --overdue and --due-before, and the id of
// the person --assignee names. --overdue is said one way, as
// dealctl mcp says it: OverdueOn set to the deal's today.
func (ff *RequestFilterFlags) resolveOnDeal(ctx context.Context, s *dealScope, now time.Time, flt *domain.ListFilter) error {
	if ff.Overdue {
		flt.OverdueOn = s.Today(now)
	}
	if ff.DueBefore != "" {
		day, err := s.parseDay("--due-before", ff.DueBefore, now)
		if err != nil {
			return err
		}
		flt.DueBefore = day
	}
	if ff.Assignee != "" {
		flt.Assignees = []string{string(api.AssigneeNone)}
		if !strings.EqualFold(ff.Assignee, "none") {
			person, err := s.Person(ctx, ff.Assignee)
			if err != nil {
				return err
			}
			flt.Assignees = []string{person.ID}
		}
	}
	return nil
}

// resolveSection sets flt's section to the one --section names, looked
// for among rows first (no call), then in the deal's whole list: rows
// filtered by the server may lack a section nothing under it matched.
func (ff *RequestFilterFlags) resolveSection(ctx context.Context, s *dealScope, rows []api.DealRequest, flt *domain.ListFilter) error {
	if ff.Section == "" {
		return nil
	}
	sec := findRow(rows, ff.Section)
	if sec == nil {
		var err error
		if sec, err = s.Request(ctx, ff.Section); err != nil {
			if cmdutil.ExitCode(err) == cmdutil.ExitNotFound {
				return cmdutil.NotFoundErrorf("--section %s: no such section on %s: 'dealctl requests ls' lists them", ff.Section, s.Deal.Codename)
			}
			return err
		}
	}
	if sec.Kind != api.KindSection {
		return cmdutil.UsageErrorf("--section %s: %s is a request, not a section", ff.Section, sec.Number)
	}
	flt.SectionID = sec.ID
	return nil
}
