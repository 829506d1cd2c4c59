package cli

import (
	"context"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/display"
)

// NewCmdFiles is `dealctl files`.
func NewCmdFiles(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "files", Short: "List the files and links given in answer"}
	cmd.AddCommand(NewCmdFilesList(f))
	return cmd
}

// FilesListOptions are `files ls`'s inputs.
type FilesListOptions struct {
	cmdEnv
	Ref string // a request; empty: the whole deal
}

// NewCmdFilesList is `dealctl files ls [REQUEST]`.
func NewCmdFilesList(f *Factory) *cobra.Command {
	opts := &FilesListOptions{cmdEnv: f.env()}
	return &cobra.Command{
		Use:               "ls [REQUEST]",
		Annotations:       printsTable, // -o csv|tsv
		Aliases:           []string{"list"},
		Short:             "List files and links on a request, or on the whole deal",
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeRequests(f, api.KindRequest),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Ref = args[0]
			}
			return filesListRun(cmd.Context(), opts)
		},
	}
}

// requestFile is a file with the request it answers, as `files ls` and
// `download` see it.
type requestFile struct {
	Request string `json:"request"`
	api.File
}

func filesListRun(ctx context.Context, o *FilesListOptions) error {
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	files, err := dealFiles(ctx, s, o.Ref)
	if err != nil {
		return err
	}
	t := &output.Table{Columns: []output.Column{
		{Header: "REQUEST", Color: display.CyanColumn},
		{Header: "NAME", Flex: true},
		{Header: "KIND", Drop: 1},
		{Header: "SIZE"},
		{Header: "DOWNLOADABLE", Drop: 2},
		{Header: "URL", PipeOnly: true},
		{Header: "VERSION_ID"},
	}}
	for _, f := range files {
		size := ""
		if f.Size != nil {
			size = strconv.FormatInt(*f.Size, 10)
		}
		t.AddRow(f.Request, orDash(deref(f.Name)), string(f.Kind), size, yesNo(f.Downloadable), deref(f.URL), f.VersionID)
	}
	return o.Printer().Print(output.View{Data: files, Table: t})
}

// dealFiles lists the files of one request (ref), or of every request.
func dealFiles(ctx context.Context, s *dealScope, ref string) ([]requestFile, error) {
	var rows []api.DealRequest
	if ref != "" {
		r, err := s.Request(ctx, ref)
		if err != nil {
			return nil, err
		}
		rows = []api.DealRequest{*r}
	} else {
		all, err := s.Requests(ctx)
		if err != nil {
			return nil, err
		}
		rows = all
	}
	files := []requestFile{}
	for _, r := range rows {
		for _, f := range r.Files {
			files = append(files, requestFile{Request: r.Number, File: f})
		}
	}
	return files, nil
}
