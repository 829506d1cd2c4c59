package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/keys"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/world"
)

func newAdminKeysCmd(o *adminOptions) *cobra.Command {
	cmd := &cobra.Command{Use: "keys", Short: "Create, list and revoke API keys"}
	cmd.AddCommand(newAdminKeysCreateCmd(o), newAdminKeysLsCmd(o), newAdminKeysRevokeCmd(o))
	return cmd
}

// adminKey is a key as admin commands print it; Secret only on creation.
type adminKey struct {
	ID        string        `json:"id"`
	Name      string        `json:"name"`
	Prefix    string        `json:"prefix"`
	Secret    string        `json:"secret,omitempty"`
	UserID    string        `json:"user_id"`
	Email     string        `json:"email"`
	Access    api.KeyAccess `json:"access"`
	DealIDs   []string      `json:"deal_ids"`
	ExpiresAt time.Time     `json:"expires_at"`
	RevokedAt *time.Time    `json:"revoked_at"`
	CreatedAt time.Time     `json:"created_at"`
}

// adminKeysCreateOptions are what `admin keys create` works from.
type adminKeysCreateOptions struct {
	runOptions
	User     string // email, id or world-file key
	Name     string
	Access   api.KeyAccess
	Deals    []string // the deals the key is limited to; none: all the user's
	Lifetime time.Duration
}

func newAdminKeysCreateCmd(o *adminOptions) *cobra.Command {
	var user, name, access, expiresIn string
	var deals []string
	cmd := &cobra.Command{
		Use:   "create --user EMAIL --name NAME --access read|write",
		Short: "Create an API key and print its secret once",
		Example: `  dealctl admin keys create --user alice@target.example --name CI --access write
  dealctl admin keys create --user bob@acme.example --name Reporting --access read --deal Falcon --expires-in 30d`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if user == "" || name == "" || access == "" {
				return cmdutil.UsageErrorf("--user, --name and --access are required")
			}
			if !api.OneOf(api.KeyAccess(access), api.KeyAccesses) {
				return cmdutil.UsageErrorf("--access %q: choose read or write", access)
			}
			lifetime := world.DefaultKeyLifetime
			if expiresIn != "" {
				d, err := world.ParseDuration(expiresIn)
				if err != nil || d <= 0 {
					return cmdutil.UsageErrorf("--expires-in %q: give a positive duration like 720h or 30d", expiresIn)
				}
				lifetime = d
			}
			ro := o.runOptions(cmd)
			var err error
			if ro.AsJSON, err = o.asJSON(cmd); err != nil {
				return err
			}
			return adminKeysCreateRun(cmd.Context(), &adminKeysCreateOptions{runOptions: ro, User: user, Name: name,
				Access: api.KeyAccess(access), Deals: deals, Lifetime: lifetime})
		},
	}
	f := cmd.Flags()
	f.StringVar(&user, "user", "", "owner of the key: email, id or world-file key")
	f.StringVar(&name, "name", "", "name of the key, to tell it apart later")
	f.StringVar(&access, "access", "", "read (GET and download links only) or write")
	f.StringArrayVarP(&deals, "deal", "d", nil, "limit the key to this deal (id, codename or name); repeat for more")
	f.StringVar(&expiresIn, "expires-in", "", "lifetime, like 720h or 30d (default 90d)")
	return cmd
}

func adminKeysCreateRun(ctx context.Context, o *adminKeysCreateOptions) error {
	db, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	u, err := findUser(ctx, db, o.User)
	if err != nil {
		return err
	}
	k := store.APIKey{ID: store.NewID(), UserID: u.ID, Name: o.Name, Access: o.Access}
	for _, ref := range o.Deals {
		d, err := findDeal(ctx, db, ref)
		if err != nil {
			return err
		}
		if _, err := db.Seat(ctx, d.ID, u.ID); errors.Is(err, store.ErrNotFound) {
			return cmdutil.UsageErrorf("%s is not on deal %s, so a key limited to it would reach nothing", o.User, d.Codename)
		}
		if !slices.Contains(k.DealIDs, d.ID) {
			k.DealIDs = append(k.DealIDs, d.ID)
		}
	}
	secret, err := keys.Generate()
	if err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	k.Prefix, k.Hash, k.CreatedAt, k.ExpiresAt = keys.Prefix(secret), keys.Hash(secret), now, now.Add(o.Lifetime)
	if err := db.CreateAPIKey(ctx, k); err != nil {
		return fmt.Errorf("cannot store the key: %w", err)
	}
	out := toAdminKey(k, u)
	out.Secret = secret
	if o.AsJSON {
		return display.WriteJSON(o.Out, out)
	}
	_, err = fmt.Fprintf(o.Out, "Created %s key %q (%s) for %s, expires %s.\n%s\nThe secret is shown only this once: store it now (e.g. export DEALCTL_API_KEY=%s).\n",
		k.Access, k.Name, k.ID, out.Email, k.ExpiresAt.Format(time.RFC3339), secret, secret)
	return err
}

func toAdminKey(k store.APIKey, u store.User) adminKey {
	out := adminKey{ID: k.ID, Name: k.Name, Prefix: k.Prefix, UserID: k.UserID, Access: k.Access, DealIDs: k.DealIDs,
		ExpiresAt: k.ExpiresAt, RevokedAt: k.RevokedAt, CreatedAt: k.CreatedAt}
	if u.Email != nil {
		out.Email = *u.Email
	}
	return out
}

// adminKeysLsOptions are what `admin keys ls` works from.
type adminKeysLsOptions struct {
	runOptions
	User string // only this user's keys; "": everyone's
}

func newAdminKeysLsCmd(o *adminOptions) *cobra.Command {
	var user string
	cmd := &cobra.Command{
		Use:   "ls [--user EMAIL]",
		Short: "List API keys (never their secrets)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ro := o.runOptions(cmd)
			var err error
			if ro.AsJSON, err = o.asJSON(cmd); err != nil {
				return err
			}
			return adminKeysLsRun(cmd.Context(), &adminKeysLsOptions{runOptions: ro, User: user})
		},
	}
	cmd.Flags().StringVar(&user, "user", "", "only this user's keys (email, id or world-file key)")
	return cmd
}

func adminKeysLsRun(ctx context.Context, o *adminKeysLsOptions) error {
	db, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	userID := ""
	if o.User != "" {
		u, err := findUser(ctx, db, o.User)
		if err != nil {
			return err
		}
		userID = u.ID
	}
	list, err := db.APIKeys(ctx, userID)
	if err != nil {
		return err
	}
	users := map[string]store.User{}
	out := make([]adminKey, 0, len(list))
	for _, k := range list {
		u, ok := users[k.UserID]
		if !ok {
			u, _ = db.User(ctx, k.UserID) // a missing user only blanks the email column
			users[k.UserID] = u
		}
		out = append(out, toAdminKey(k, u))
	}
	if o.AsJSON {
		return display.WriteJSON(o.Out, out)
	}
	// Aligned with a header for a person; tab-separated stable
	// columns without one when piped, as every other list.
	var tw io.Writer = o.Out
	var aligned *tabwriter.Writer
	if o.IO.IsStdoutTTY() {
		aligned = tabwriter.NewWriter(o.Out, 0, 4, 2, ' ', 0)
		tw = aligned
		fmt.Fprintln(tw, "ID\tPREFIX\tNAME\tUSER\tACCESS\tDEALS\tEXPIRES\tSTATE")
	}
	now := time.Now()
	for _, k := range out {
		deals := "all"
		if k.DealIDs != nil {
			deals = strings.Join(k.DealIDs, ",")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Prefix, k.Name, k.Email, k.Access, deals,
			k.ExpiresAt.Format(time.RFC3339), keyState(k, now))
	}
	if aligned != nil {
		return aligned.Flush()
	}
	return nil
}

func keyState(k adminKey, now time.Time) string {
	switch {
	case k.RevokedAt != nil:
		return "revoked"
	case !now.Before(k.ExpiresAt):
		return "expired"
	}
	return "active"
}

// adminKeysRevokeOptions are what `admin keys revoke` works from.
type adminKeysRevokeOptions struct {
	runOptions
	Key string // id or prefix
}

func newAdminKeysRevokeCmd(o *adminOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke ID|PREFIX",
		Short: "Revoke an API key at once",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return adminKeysRevokeRun(cmd.Context(), &adminKeysRevokeOptions{runOptions: o.runOptions(cmd), Key: args[0]})
		},
	}
}

func adminKeysRevokeRun(ctx context.Context, o *adminKeysRevokeOptions) error {
	db, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	err = db.RevokeAPIKey(ctx, o.Key, time.Now().UTC())
	if errors.Is(err, store.ErrNotFound) {
		return cmdutil.WithExit(cmdutil.ExitNotFound, fmt.Errorf("no key with id or prefix %q (see 'dealctl admin keys ls')", o.Key))
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(o.Out, "Key %s is revoked.\n", o.Key)
	return err
}
