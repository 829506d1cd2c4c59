package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
)

// NewCmdPeople is `dealctl people`.
func NewCmdPeople(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "people", Short: "List the people on a deal"}
	cmd.AddCommand(NewCmdPeopleList(f))
	return cmd
}

// PeopleListOptions are `people ls`'s inputs.
type PeopleListOptions struct{ cmdEnv }

// NewCmdPeopleList is `dealctl people ls`.
func NewCmdPeopleList(f *Factory) *cobra.Command {
	opts := &PeopleListOptions{cmdEnv: f.env()}
	return &cobra.Command{
		Use:         "ls",
		Annotations: printsTable, // -o csv|tsv
		Aliases:     []string{"list"},
		Short:       "List everyone on the deal, from both sides",
		Args:        cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return peopleListRun(cmd.Context(), opts)
		},
	}
}

func peopleListRun(ctx context.Context, o *PeopleListOptions) error {
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	people, err := s.People(ctx)
	if err != nil {
		return err
	}
	if people == nil {
		people = []api.Person{}
	}
	// On a narrow terminal the name is cut, then the admin, joined and
	// role columns go; the e-mail, which names a person in commands, stays
	// whole.
	t := &output.Table{Columns: []output.Column{
		{Header: "EMAIL"}, {Header: "NAME", Flex: true}, {Header: "SIDE"}, {Header: "ACCESS"}, {Header: "ROLE", Drop: 1, Words: true},
		{Header: "ADMIN", Drop: 3}, {Header: "JOINED", Drop: 2}, {Header: "ID", PipeOnly: true},
	}}
	for _, p := range people {
		t.AddRow(p.Email, deref(p.Name), partyLabel(s.Deal, p.PartyID), string(p.Access), string(p.Role),
			yesNo(p.IsProjectAdmin), yesNo(p.Joined), p.ID)
	}
	return o.Printer().Print(output.View{Data: people, Table: t})
}
