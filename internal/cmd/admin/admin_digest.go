package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/termsafe"
)

func newAdminDigestCmd(o *adminOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "digest",
		Short: "Turn people's daily digest off or on, and list who gets it",
		Long: `Each joined person of a deal gets a daily digest of their overdue and
due-this-week requests and of new answers and questions on requests assigned
to them, at the server's --digest-at time in the deal's time zone
(docs/server.md, "Daily digest"). These commands turn it off or on per person
and deal; a world file's people take digest: true|false the same way.`,
	}
	cmd.AddCommand(newAdminDigestSetCmd(o, false), newAdminDigestSetCmd(o, true), newAdminDigestLsCmd(o))
	return cmd
}

// adminDigestSetOptions are what `admin digest off` and `on` work from.
type adminDigestSetOptions struct {
	runOptions
	Deal  string   // id, codename, name or world-file key
	Users []string // email, id or world-file key of each user
	On    bool     // digest on, or off when false
}

// adminDigestChange is one person's digest setting as the commands print
// it.
type adminDigestChange struct {
	DealID   string `json:"deal_id"`
	PersonID string `json:"person_id"`
	UserID   string `json:"user_id"`
	Email    string `json:"email"`
	Digest   bool   `json:"digest"`
	Changed  bool   `json:"changed"`
}

func newAdminDigestSetCmd(o *adminOptions, on bool) *cobra.Command {
	verb, short := "off", "Stop the daily digest for people on a deal"
	if on {
		verb, short = "on", "Send the daily digest again to people on a deal"
	}
	var deal string
	cmd := &cobra.Command{
		Use:     verb + " --deal DEAL USER...",
		Short:   short,
		Example: "  dealctl admin digest " + verb + " --deal Falcon bob@acme.example carol@acme.example",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if deal == "" {
				return cmdutil.UsageErrorf("--deal is required: the deal whose digest to turn %s", verb)
			}
			ro := o.runOptions(cmd)
			var err error
			if ro.AsJSON, err = o.asJSON(cmd); err != nil {
				return err
			}
			return adminDigestSetRun(cmd.Context(), &adminDigestSetOptions{runOptions: ro, Deal: deal, Users: args, On: on})
		},
	}
	cmd.Flags().StringVarP(&deal, "deal", "d", "", "the deal (id, codename, name or world-file key)")
	return cmd
}

// adminDigestSetRun resolves every user first, so that a typo in the
// third name changes nothing for the first two.
func adminDigestSetRun(ctx context.Context, o *adminDigestSetOptions) error {
	db, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	d, err := findDeal(ctx, db, o.Deal)
	if err != nil {
		return err
	}
	out := make([]adminDigestChange, 0, len(o.Users))
	for _, ref := range o.Users {
		u, err := findUser(ctx, db, ref)
		if err != nil {
			return err
		}
		p, err := db.Seat(ctx, d.ID, u.ID)
		if errors.Is(err, store.ErrNotFound) {
			return cmdutil.WithExit(cmdutil.ExitNotFound, fmt.Errorf("%s is not on deal %s: see 'dealctl admin digest ls --deal %s'", ref, d.Codename, d.Codename))
		}
		if err != nil {
			return err
		}
		out = append(out, adminDigestChange{DealID: d.ID, PersonID: p.ID, UserID: u.ID, Email: p.Email, Digest: o.On})
	}
	for i := range out {
		if out[i].Changed, err = db.SetDigestOptOut(ctx, out[i].PersonID, !o.On); err != nil {
			return fmt.Errorf("cannot turn the digest %s for %s: %w", onOff(o.On), out[i].Email, err)
		}
	}
	if o.AsJSON {
		return display.WriteJSON(o.Out, out)
	}
	for _, c := range out {
		already := ""
		if !c.Changed {
			already = "already "
		}
		fmt.Fprintf(o.Out, "Daily digest %s%s for %s on %s.\n", already, onOff(o.On), termsafe.Line(c.Email), termsafe.Line(d.Codename))
	}
	return nil
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// adminDigestPerson is a row of `admin digest ls`.
type adminDigestPerson struct {
	PersonID    string     `json:"person_id"`
	Email       string     `json:"email"`
	Name        *string    `json:"name"`
	Joined      bool       `json:"joined"`
	Digest      bool       `json:"digest"` // not opted out
	LastSlot    *time.Time `json:"last_slot"`
	LastOutcome string     `json:"last_outcome,omitempty"` // sent, empty, opted_out
}

// adminDigestLsOptions are what `admin digest ls` works from.
type adminDigestLsOptions struct {
	runOptions
	Deal string
}

func newAdminDigestLsCmd(o *adminOptions) *cobra.Command {
	var deal string
	cmd := &cobra.Command{
		Use:   "ls --deal DEAL",
		Short: "List a deal's people with their digest setting and last digest",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if deal == "" {
				return cmdutil.UsageErrorf("--deal is required")
			}
			ro := o.runOptions(cmd)
			var err error
			if ro.AsJSON, err = o.asJSON(cmd); err != nil {
				return err
			}
			return adminDigestLsRun(cmd.Context(), &adminDigestLsOptions{runOptions: ro, Deal: deal})
		},
	}
	cmd.Flags().StringVarP(&deal, "deal", "d", "", "the deal (id, codename, name or world-file key)")
	return cmd
}

func adminDigestLsRun(ctx context.Context, o *adminDigestLsOptions) error {
	db, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	d, err := findDeal(ctx, db, o.Deal)
	if err != nil {
		return err
	}
	people, err := db.DigestRecipients(ctx, d.ID)
	if err != nil {
		return err
	}
	out := make([]adminDigestPerson, 0, len(people))
	for _, p := range people {
		out = append(out, adminDigestPerson{PersonID: p.ID, Email: p.Email, Name: p.Name, Joined: p.Joined, Digest: !p.OptedOut,
			LastSlot: p.LastWindowEnd, LastOutcome: p.LastOutcome})
	}
	if o.AsJSON {
		return display.WriteJSON(o.Out, out)
	}
	loc, err := time.LoadLocation(d.Timezone)
	if err != nil {
		loc = time.UTC
	}
	var tw io.Writer = o.Out
	var aligned *tabwriter.Writer
	if o.IO.IsStdoutTTY() {
		aligned = tabwriter.NewWriter(o.Out, 0, 4, 2, ' ', 0)
		tw = aligned
		fmt.Fprintln(tw, "EMAIL\tNAME\tDIGEST\tLAST")
	}
	for _, p := range out {
		name, state, last := "", onOff(p.Digest), "never"
		if p.Name != nil {
			name = *p.Name
		}
		if !p.Joined {
			state += " (not joined: none sent)"
		}
		if p.LastSlot != nil {
			last = p.LastSlot.In(loc).Format("2006-01-02 15:04 MST") + " " + p.LastOutcome
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", termsafe.Line(p.Email), termsafe.Line(name), state, last)
	}
	if aligned != nil {
		return aligned.Flush()
	}
	return nil
}
