package admin

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

// adminArchiveOptions are what `admin deals archive` and `unarchive` work
// from.
type adminArchiveOptions struct {
	runOptions
	Deal    string // id, codename, name or world-file key
	Archive bool   // archive, or unarchive when false
}

func newAdminDealsCmd(o *adminOptions) *cobra.Command {
	cmd := &cobra.Command{Use: "deals", Short: "Archive and unarchive deals"}
	for _, archive := range []bool{true, false} {
		verb, short := "archive", "Archive a deal: read-only, listed only for its project admins"
		if !archive {
			verb, short = "unarchive", "Unarchive a deal: writable again"
		}
		cmd.AddCommand(&cobra.Command{
			Use:   verb + " DEAL",
			Short: short,
			Args:  cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return adminArchiveRun(cmd.Context(), &adminArchiveOptions{runOptions: o.runOptions(cmd), Deal: args[0], Archive: archive})
			},
		})
	}
	return cmd
}

func adminArchiveRun(ctx context.Context, o *adminArchiveOptions) error {
	verb := "archive"
	if !o.Archive {
		verb = "unarchive"
	}
	db, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	d, err := findDeal(ctx, db, o.Deal)
	if err != nil {
		return err
	}
	if d.Archived == o.Archive {
		_, err = fmt.Fprintf(o.Out, "Deal %s (%s) is already %sd.\n", d.Codename, d.ID, verb)
		return err
	}
	if err := db.SetDealArchived(ctx, d.ID, o.Archive); err != nil {
		return fmt.Errorf("cannot %s deal %s: %w", verb, d.Codename, err)
	}
	_, err = fmt.Fprintf(o.Out, "Deal %s (%s) %sd.\n", d.Codename, d.ID, verb)
	return err
}
