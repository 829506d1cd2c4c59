// Command oapiclient runs a small program through the Go client
// oapi-codegen generates from the served document (models and client,
// default options) against a real `dealctl serve --demo`, as both sides.
// Arguments: base URL, the owning side's key, the counterparty's key. It
// exits non-zero on the first answer that is not what the document
// promises. .ci/generated-clients.sh builds it next to the generated
// package; it is not part of the dealctl module.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"slices"

	"github.com/google/uuid"

	"example.com/dealclient/dealclient"
)

func main() {
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "oapi-codegen:", err)
		os.Exit(1)
	}
}

func as(base, key string) (*dealclient.ClientWithResponses, error) {
	return dealclient.NewClientWithResponses(base, dealclient.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+key)
		return nil
	}))
}

func requestIDs(rows []dealclient.DealRequest, keep func(dealclient.DealRequest) bool) []string {
	var out []string
	for _, r := range rows {
		if r.Kind == dealclient.Request && keep(r) {
			out = append(out, r.Id)
		}
	}
	slices.Sort(out)
	return out
}

func run(base, ownerKey, otherKey string) error {
	ctx := context.Background()
	owner, err := as(base, ownerKey)
	if err != nil {
		return err
	}
	other, err := as(base, otherKey)
	if err != nil {
		return err
	}

	// GET /me: its typed headers are parsed too (an untyped one failed).
	me, err := owner.GetMeWithResponse(ctx)
	if err != nil || me.JSON200 == nil || me.Headers200 == nil {
		return fmt.Errorf("GET /me: %v %v", err, status(me))
	}
	deals, err := owner.ListDealsWithResponse(ctx)
	if err != nil || deals.JSON200 == nil || len(*deals.JSON200) == 0 {
		return fmt.Errorf("GET /deals: %v %v", err, status(deals))
	}
	deal := (*deals.JSON200)[0]
	dealID := uuid.MustParse(deal.Id)

	// A two-value filter, as oapi-codegen sends it (status=open,partial).
	all, err := owner.ListRequestsWithResponse(ctx, dealID, nil)
	if err != nil || all.JSON200 == nil {
		return fmt.Errorf("GET requests: %v %v", err, status(all))
	}
	want := requestIDs(*all.JSON200, func(r dealclient.DealRequest) bool {
		return r.Status == dealclient.Open || r.Status == dealclient.Partial
	})
	if len(want) == 0 || len(want) == len(requestIDs(*all.JSON200, func(dealclient.DealRequest) bool { return true })) {
		return fmt.Errorf("the demo needs open, partial and complete requests")
	}
	two := dealclient.StatusFilter{dealclient.Open, dealclient.Partial}
	filtered, err := owner.ListRequestsWithResponse(ctx, dealID, &dealclient.ListRequestsParams{Status: &two})
	if err != nil || filtered.JSON200 == nil {
		return fmt.Errorf("filtered GET: %v %v", err, status(filtered))
	}
	if got := requestIDs(*filtered.JSON200, func(dealclient.DealRequest) bool { return true }); !slices.Equal(got, want) {
		return fmt.Errorf("status=open,partial gave %d requests, want %d", len(got), len(want))
	}

	// The counterparty answers an open request in part, with a link.
	theirs, err := other.ListRequestsWithResponse(ctx, dealID, nil)
	if err != nil || theirs.JSON200 == nil {
		return fmt.Errorf("the counterparty's list: %v %v", err, status(theirs))
	}
	i := slices.IndexFunc(*theirs.JSON200, func(r dealclient.DealRequest) bool {
		return r.Kind == dealclient.Request && r.Status == dealclient.Open && r.Can.Answer
	})
	if i < 0 {
		return fmt.Errorf("no open request the counterparty may answer")
	}
	row := (*theirs.JSON200)[i]
	rowID := uuid.MustParse(row.Id)
	text, partial, label := "Part of it, from oapi-codegen.", true, "Data room"
	url := "https://example.com/generated-client/oapi-codegen"
	posted, err := other.CreateMessageWithResponse(ctx, dealID, rowID, nil, dealclient.MessageCreate{
		Text: &text, Partial: &partial, Links: &[]dealclient.Link{{Url: url, Label: &label}},
	})
	if err != nil || posted.JSON201 == nil {
		return fmt.Errorf("POST message: %v %v", err, status(posted))
	}
	if !slices.ContainsFunc(posted.JSON201.Files, func(f dealclient.File) bool { return f.Url != nil && *f.Url == url }) {
		return fmt.Errorf("the posted link is not among the message's files")
	}

	// The owning side reads the row (ETag), completes it with If-Match; the
	// counterparty may not move it back (409), nor a stale If-Match pass.
	read, err := owner.GetRequestWithResponse(ctx, dealID, rowID, nil)
	if err != nil || read.JSON200 == nil || read.Headers200 == nil {
		return fmt.Errorf("GET the row: %v %v", err, status(read))
	}
	if read.JSON200.Status != dealclient.Partial || read.Headers200.ETag == "" {
		return fmt.Errorf("the row is %s with ETag %q, want partial with one", read.JSON200.Status, read.Headers200.ETag)
	}
	etag := read.Headers200.ETag
	complete, open := dealclient.Complete, dealclient.Open
	done, err := owner.UpdateRequestWithResponse(ctx, dealID, rowID, &dealclient.UpdateRequestParams{IfMatch: &etag}, dealclient.DealRequestUpdate{Status: &complete})
	if err != nil || done.JSON200 == nil || done.JSON200.Status != dealclient.Complete || done.Headers200 == nil || done.Headers200.ETag == "" {
		return fmt.Errorf("PATCH status: %v %v", err, status(done))
	}
	back, err := other.UpdateRequestWithResponse(ctx, dealID, rowID, nil, dealclient.DealRequestUpdate{Status: &open})
	if err != nil || back.JSON409 == nil || back.JSON409.Params == nil || back.JSON409.Params.Reason == nil || *back.JSON409.Params.Reason != "status_not_allowed" {
		return fmt.Errorf("moving back: %v %v", err, status(back))
	}
	stale, err := owner.UpdateRequestWithResponse(ctx, dealID, rowID, &dealclient.UpdateRequestParams{IfMatch: &etag}, dealclient.DealRequestUpdate{Status: &open})
	if err != nil || stale.JSON409 == nil || stale.JSON409.Code != "conflict_stale" {
		return fmt.Errorf("a stale If-Match: %v %v", err, status(stale))
	}

	// A file given in answer: a download link, then its bytes, without the key.
	var file *dealclient.File
	for _, r := range *theirs.JSON200 {
		for _, f := range r.Files {
			if f.Kind == dealclient.FileKindFile && f.Downloadable && file == nil {
				file = &f
			}
		}
	}
	if file == nil {
		return fmt.Errorf("no downloadable file in the counterparty's list")
	}
	link, err := other.CreateDownloadLinkWithResponse(ctx, dealID, uuid.MustParse(file.VersionId))
	if err != nil || link.JSON200 == nil {
		return fmt.Errorf("download link: %v %v", err, status(link))
	}
	res, err := http.Get(link.JSON200.Url)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK || int64(len(body)) != link.JSON200.Size {
		return fmt.Errorf("fetching the link: %v %d, %d bytes of %d", err, res.StatusCode, len(body), link.JSON200.Size)
	}
	fmt.Printf("oapi-codegen: %d open or partial requests, message %s, %s open → partial → complete (409 back), %d bytes of %s\n",
		len(want), posted.JSON201.Id, row.Number, len(body), link.JSON200.Filename)
	return nil
}

// status is an answer's HTTP status, for a failure's message; none when
// the call failed before an answer.
func status(r interface{ StatusCode() int }) string {
	if v := reflect.ValueOf(r); !v.IsValid() || v.IsNil() {
		return "(no answer)"
	}
	return fmt.Sprint("HTTP ", r.StatusCode())
}
