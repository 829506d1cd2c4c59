package admin

import (
	"fmt"

	"github.com/spf13/cobra"
)

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
				ctx := cmd.Context()
				db, err := o.open(cmd)
				if err != nil {
					return err
				}
				defer db.Close()
				d, err := findDeal(ctx, db, args[0])
				if err != nil {
					return err
				}
				if d.Archived == archive {
					_, err = fmt.Fprintf(cmd.OutOrStdout(), "Deal %s (%s) is already %sd.\n", d.Codename, d.ID, verb)
					return err
				}
				if err := db.SetDealArchived(ctx, d.ID, archive); err != nil {
					return fmt.Errorf("cannot %s deal %s: %w", verb, d.Codename, err)
				}
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "Deal %s (%s) %sd.\n", d.Codename, d.ID, verb)
				return err
			},
		})
	}
	return cmd
}
