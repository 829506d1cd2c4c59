package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cli/output"
)

// WhoamiOptions are `whoami`'s inputs.
type WhoamiOptions struct{ cmdEnv }

// NewCmdWhoami is `dealctl whoami`.
func NewCmdWhoami(f *Factory) *cobra.Command {
	opts := &WhoamiOptions{cmdEnv: f.env()}
	return &cobra.Command{
		Use:   "whoami",
		Short: "Show who the API key acts as",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return whoamiRun(cmd.Context(), opts)
		},
	}
}

func whoamiRun(ctx context.Context, o *WhoamiOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	me, err := c.Me(ctx)
	if err != nil {
		return err
	}
	return o.Printer().Print(output.View{Data: me, Human: func(w io.Writer) error {
		me := output.SafeCopy(me)
		if o.IO.IsStdoutTTY() {
			_, err := fmt.Fprintf(w, "%s of %s, with key %s %s (%s)\n", userLabel(me.User), me.Organization.Name, me.Key.Name, me.Key.Prefix, me.Key.Access)
			return err
		}
		_, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", deref(me.User.Email), deref(me.User.Name), me.Organization.Name, me.Key.Prefix, me.Key.Access)
		return err
	}})
}
