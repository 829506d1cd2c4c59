// Command ogenclient runs a small program through the Go client ogen
// generates from the served document (default options; ogen validates
// every answer it decodes) against a real `dealctl serve --demo`, as both
// sides. Arguments: base URL, the owning side's key, the counterparty's
// key. It exits non-zero on the first answer that is not what the document
// promises. .ci/generated-clients.sh builds it next to the generated
// package; it is not part of the dealctl module.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"

	"github.com/google/uuid"

	"example.com/ogenclient/dealclient"
)

func main() {
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "ogen:", err)
		os.Exit(1)
	}
}

// bearer is the key every call carries.
type bearer string

func (b bearer) BearerKey(context.Context, dealclient.OperationName) (dealclient.BearerKey, error) {
	return dealclient.BearerKey{Token: string(b)}, nil
}

func requestIDs(rows []dealclient.DealRequest, keep func(dealclient.DealRequest) bool) []string {
	var out []string
	for _, r := range rows {
		if r.Kind == dealclient.RequestKindRequest && keep(r) {
			out = append(out, r.ID)
		}
	}
	slices.Sort(out)
	return out
}

func run(base, ownerKey, otherKey string) error {
	ctx := context.Background()
	owner, err := dealclient.NewClient(base, bearer(ownerKey))
	if err != nil {
		return err
	}
	other, err := dealclient.NewClient(base, bearer(otherKey))
	if err != nil {
		return err
	}

	if res, err := owner.GetMe(ctx); err != nil {
		return fmt.Errorf("GET /me: %v", err)
	} else if _, ok := res.(*dealclient.MeHeaders); !ok {
		return fmt.Errorf("GET /me: %T", res)
	}
	res, err := owner.ListDeals(ctx)
	deals, ok := res.(*dealclient.ListDealsOKHeaders)
	if err != nil || !ok || len(deals.Response) == 0 {
		return fmt.Errorf("GET /deals: %v %T", err, res)
	}
	dealID := uuid.MustParse(deals.Response[0].ID)

	// A two-value filter, as ogen sends it (status=open,partial).
	list := func(c *dealclient.Client, status ...dealclient.RequestStatus) ([]dealclient.DealRequest, error) {
		res, err := c.ListRequests(ctx, dealclient.ListRequestsParams{DealID: dealID, Status: status})
		rows, ok := res.(*dealclient.ListRequestsOKHeaders)
		if err != nil || !ok || rows.ETag == "" {
			return nil, fmt.Errorf("GET requests: %v %T", err, res)
		}
		return rows.Response, nil
	}
	all, err := list(owner)
	if err != nil {
		return err
	}
	want := requestIDs(all, func(r dealclient.DealRequest) bool {
		return r.Status == dealclient.RequestStatusOpen || r.Status == dealclient.RequestStatusPartial
	})
	if len(want) == 0 || len(want) == len(requestIDs(all, func(dealclient.DealRequest) bool { return true })) {
		return fmt.Errorf("the demo needs open, partial and complete requests")
	}
	filtered, err := list(owner, dealclient.RequestStatusOpen, dealclient.RequestStatusPartial)
	if err != nil {
		return err
	}
	if got := requestIDs(filtered, func(dealclient.DealRequest) bool { return true }); !slices.Equal(got, want) {
		return fmt.Errorf("status=open,partial gave %d requests, want %d", len(got), len(want))
	}

	// The counterparty answers an open request in part, with a link.
	theirs, err := list(other)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(theirs, func(r dealclient.DealRequest) bool {
		return r.Kind == dealclient.RequestKindRequest && r.Status == dealclient.RequestStatusOpen && r.Can.Answer
	})
	if i < 0 {
		return fmt.Errorf("no open request the counterparty may answer")
	}
	row := theirs[i]
	rowID := uuid.MustParse(row.ID)
	link, _ := url.Parse("https://example.com/generated-client/ogen")
	pres, err := other.CreateMessage(ctx, &dealclient.MessageCreate{
		Text:    dealclient.NewOptString("Part of it, from ogen."),
		Partial: dealclient.NewOptBool(true),
		Links:   []dealclient.Link{{URL: *link, Label: dealclient.NewOptNilString("Data room")}},
	}, dealclient.CreateMessageParams{DealID: dealID, RequestID: rowID})
	posted, ok := pres.(*dealclient.MessageHeaders)
	if err != nil || !ok {
		return fmt.Errorf("POST message: %v %T", err, pres)
	}
	if !slices.ContainsFunc(posted.Response.Files, func(f dealclient.File) bool { return f.URL.Value == link.String() }) {
		return fmt.Errorf("the posted link is not among the message's files")
	}

	// The owning side reads the row (ETag), completes it with If-Match; the
	// counterparty may not move it back (409), nor a stale If-Match pass.
	gres, err := owner.GetRequest(ctx, dealclient.GetRequestParams{DealID: dealID, RequestID: rowID})
	read, ok := gres.(*dealclient.GetRequestOKHeaders)
	if err != nil || !ok || read.Response.Status != dealclient.RequestStatusPartial || read.ETag == "" {
		return fmt.Errorf("GET the row: %v %T", err, gres)
	}
	patch := func(c *dealclient.Client, to dealclient.RequestStatus, ifMatch string) (dealclient.UpdateRequestRes, error) {
		p := dealclient.UpdateRequestParams{DealID: dealID, RequestID: rowID}
		if ifMatch != "" {
			p.IfMatch = dealclient.NewOptString(ifMatch)
		}
		return c.UpdateRequest(ctx, &dealclient.DealRequestUpdate{Status: dealclient.NewOptRequestStatus(to)}, p)
	}
	ures, err := patch(owner, dealclient.RequestStatusComplete, read.ETag)
	if done, ok := ures.(*dealclient.GetRequestOKHeaders); err != nil || !ok || done.Response.Status != dealclient.RequestStatusComplete || done.ETag == "" {
		return fmt.Errorf("PATCH status: %v %T", err, ures)
	}
	ures, err = patch(other, dealclient.RequestStatusOpen, "")
	if back, ok := ures.(*dealclient.ConflictHeaders); err != nil || !ok || back.Response.Params.Value.Reason.Value != "status_not_allowed" {
		return fmt.Errorf("moving back: %v %T", err, ures)
	}
	ures, err = patch(owner, dealclient.RequestStatusOpen, read.ETag)
	if stale, ok := ures.(*dealclient.ConflictHeaders); err != nil || !ok || stale.Response.Code != dealclient.ConflictCodeConflictStale {
		return fmt.Errorf("a stale If-Match: %v %T", err, ures)
	}

	// A file given in answer: a download link, then its bytes, without the key.
	var file *dealclient.File
	for _, r := range theirs {
		for _, f := range r.Files {
			if f.Kind == dealclient.FileKindFile && f.Downloadable && file == nil {
				file = &f
			}
		}
	}
	if file == nil {
		return fmt.Errorf("no downloadable file in the counterparty's list")
	}
	lres, err := other.CreateDownloadLink(ctx, dealclient.CreateDownloadLinkParams{DealID: dealID, VersionID: uuid.MustParse(file.VersionID)})
	dl, ok := lres.(*dealclient.DownloadLinkHeaders)
	if err != nil || !ok {
		return fmt.Errorf("download link: %v %T", err, lres)
	}
	got, err := http.Get(dl.Response.URL.String())
	if err != nil {
		return err
	}
	defer got.Body.Close()
	body, err := io.ReadAll(got.Body)
	if err != nil || got.StatusCode != http.StatusOK || int64(len(body)) != dl.Response.Size {
		return fmt.Errorf("fetching the link: %v %d, %d bytes of %d", err, got.StatusCode, len(body), dl.Response.Size)
	}
	fmt.Printf("ogen: %d open or partial requests, message %s, %s open → partial → complete (409 back), %d bytes of %s\n",
		len(want), posted.Response.ID, row.Number, len(body), dl.Response.Filename)
	return nil
}
