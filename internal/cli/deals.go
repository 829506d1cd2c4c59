package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/display"
)

// NewCmdDeals is `dealctl deals`.
func NewCmdDeals(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "deals", Short: "List deals, show one, choose the default"}
	cmd.AddCommand(NewCmdDealsList(f), NewCmdDealsShow(f), NewCmdDealsUse(f))
	return cmd
}

// DealsListOptions are `deals ls`'s inputs.
type DealsListOptions struct{ cmdEnv }

// NewCmdDealsList is `dealctl deals ls`.
func NewCmdDealsList(f *Factory) *cobra.Command {
	opts := &DealsListOptions{cmdEnv: f.env()}
	return &cobra.Command{
		Use:         "ls",
		Annotations: printsTable, // -o csv|tsv
		Aliases:     []string{"list"},
		Short:       "List the deals the key reaches",
		Args:        cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return dealsListRun(cmd.Context(), opts)
		},
	}
}

func dealsListRun(ctx context.Context, o *DealsListOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	deals, err := c.Deals(ctx)
	if err != nil {
		return err
	}
	if deals == nil {
		deals = []api.Deal{}
	}
	return o.Printer().Print(output.View{Data: deals, Table: dealsTable(deals)})
}

func dealsTable(deals []api.Deal) *output.Table {
	t := &output.Table{Columns: []output.Column{
		{Header: "CODENAME", Color: display.BoldColumn},
		{Header: "NAME", Flex: true},
		{Header: "OWNER", Drop: 1},
		{Header: "TIMEZONE", Drop: 2},
		{Header: "ARCHIVED"},
		{Header: "ID", PipeOnly: true},
	}}
	for _, d := range deals {
		t.AddRow(d.Codename, d.Name, ownerLabel(d), d.Timezone, yesNo(d.Archived), d.ID)
	}
	return t
}

// ownerLabel names the side that runs the list.
func ownerLabel(d api.Deal) string {
	for _, p := range d.Parties {
		if p.IsOwner {
			if p.Label != nil {
				return *p.Label
			}
			return string(p.Side)
		}
	}
	return ""
}

func partyLabel(d api.Deal, partyID string) string {
	for _, p := range d.Parties {
		if p.ID == partyID {
			if p.Label != nil {
				return *p.Label
			}
			return string(p.Side)
		}
	}
	return ""
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// DealsShowOptions are `deals show`'s inputs.
type DealsShowOptions struct {
	cmdEnv
	Ref string // empty: the chosen deal
}

// NewCmdDealsShow is `dealctl deals show [DEAL]`.
func NewCmdDealsShow(f *Factory) *cobra.Command {
	opts := &DealsShowOptions{cmdEnv: f.env()}
	return &cobra.Command{
		Use:               "show [DEAL]",
		Short:             "Show a deal and your seat on it",
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeDeals(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Ref = args[0]
			}
			return dealsShowRun(cmd.Context(), opts)
		},
	}
}

func dealsShowRun(ctx context.Context, o *DealsShowOptions) error {
	if o.Ref != "" {
		ref := o.Ref
		o.DealRef = func() (string, error) { return ref, nil }
	}
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	// A deal named by id has been read with the seat already.
	d, err := s.Detail(ctx)
	if err != nil {
		return err
	}
	return o.Printer().Print(output.View{Data: d, Human: func(w io.Writer) error {
		d := output.SafeCopy(d)
		fields := []output.Field{
			{Label: "Codename", Value: d.Codename},
			{Label: "Name", Value: d.Name},
			{Label: "Id", Value: d.ID},
			{Label: "Time zone", Value: d.Timezone},
			{Label: "Archived", Value: yesNo(d.Archived)},
		}
		for _, p := range d.Parties {
			role := "counterparty"
			if p.IsOwner {
				role = "owner"
			}
			fields = append(fields, output.Field{Label: "Party", Value: fmt.Sprintf("%s (%s, %s)", partyLabel(d.Deal, p.ID), p.Side, role)})
		}
		you := fmt.Sprintf("%s, %s", partyLabel(d.Deal, d.Me.PartyID), d.Me.Access)
		if d.Me.IsProjectAdmin {
			you += ", project admin"
		}
		fields = append(fields, output.Field{Label: "You", Value: you})
		return output.WriteFields(w, fields)
	}})
}

// DealsUseOptions are `deals use`'s inputs.
type DealsUseOptions struct {
	cmdEnv
	Ref  string
	Save func(dealID string) error
}

// NewCmdDealsUse is `dealctl deals use DEAL`.
func NewCmdDealsUse(f *Factory) *cobra.Command {
	opts := &DealsUseOptions{cmdEnv: f.env()}
	opts.Save = func(id string) error {
		cfg, err := f.Config()
		if err != nil {
			return err
		}
		server, err := f.Server()
		if err != nil {
			return err
		}
		return cfg.SetDefaultDeal(server, id)
	}
	return &cobra.Command{
		Use:               "use DEAL",
		Short:             "Make a deal the default for this server",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeDeals(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			return dealsUseRun(cmd.Context(), opts)
		},
	}
}

func dealsUseRun(ctx context.Context, o *DealsUseOptions) error {
	ref := o.Ref
	o.DealRef = func() (string, error) { return ref, nil }
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	if err := o.Save(s.Deal.ID); err != nil {
		return fmt.Errorf("saving the default deal: %w", err)
	}
	p := o.Printer()
	if p.Machine() {
		return p.Print(output.View{Data: s.Deal})
	}
	o.Infof("Default deal is now %s", describeDeal(s.Deal))
	return nil
}

// itoa is strconv.Itoa, short for table cells.
func itoa(n int) string { return strconv.Itoa(n) }
