package cli

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// NewCmdCompletion is `dealctl completion SHELL`.
func NewCmdCompletion(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "completion {bash|zsh|fish|powershell}",
		Short: "Print a shell completion script",
		Long: `Prints a completion script. Deal codenames, request numbers, people's
emails and statuses complete from the server, using the stored key.

  bash:       source <(dealctl completion bash)
  zsh:        dealctl completion zsh > "${fpath[1]}/_dealctl"
  fish:       dealctl completion fish | source
  powershell: dealctl completion powershell | Out-String | Invoke-Expression`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		RunE: func(cmd *cobra.Command, args []string) error {
			root, w := cmd.Root(), f.IO.Out
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(w, true)
			case "zsh":
				return root.GenZshCompletion(w)
			case "fish":
				return root.GenFishCompletion(w, true)
			case "powershell":
				return root.GenPowerShellCompletionWithDesc(w)
			}
			return cmdutil.UsageErrorf("unknown shell %q: choose bash, zsh, fish or powershell", args[0])
		},
	}
}

type completeFunc = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective)

// completionTimeout keeps a slow or absent server from freezing the shell.
const completionTimeout = 3 * time.Second

func enumCompletion[T ~string](values []T) completeFunc {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = string(v)
	}
	return cobra.FixedCompletions(s, cobra.ShellCompDirectiveNoFileComp)
}

// completeDeals offers deal codenames (with their names as descriptions).
func completeDeals(f *Factory) completeFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 && cmd.Name() != "dealctl" {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
		defer cancel()
		c, err := f.Client()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		deals, err := c.Deals(ctx)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, d := range deals {
			if strings.HasPrefix(strings.ToLower(d.Codename), strings.ToLower(toComplete)) {
				out = append(out, d.Codename+"\t"+d.Name)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeRequests offers request numbers of the chosen deal, with titles;
// kind narrows them to sections or requests ("" for both).
func completeRequests(f *Factory, kind api.RequestKind) completeFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
		defer cancel()
		s, err := f.env().openDeal(ctx)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		rows, err := s.Requests(ctx)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, r := range rows {
			if (kind == "" || r.Kind == kind) && strings.HasPrefix(r.Number, toComplete) {
				out = append(out, r.Number+"\t"+r.Title)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completePeople offers emails of the people on the chosen deal, after
// the given keywords (me, none).
func completePeople(f *Factory, keywords ...string) completeFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		out := append([]string(nil), keywords...)
		ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
		defer cancel()
		s, err := f.env().openDeal(ctx)
		if err != nil {
			return out, cobra.ShellCompDirectiveNoFileComp
		}
		people, err := s.People(ctx)
		if err != nil {
			return out, cobra.ShellCompDirectiveNoFileComp
		}
		for _, p := range people {
			if strings.HasPrefix(strings.ToLower(p.Email), strings.ToLower(toComplete)) {
				out = append(out, p.Email+"\t"+deref(p.Name))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
