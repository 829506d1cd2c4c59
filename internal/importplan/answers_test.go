package importplan

import (
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// A counsel's list comes back with a Seller comments column: each row's
// answer is planned on the request it stands for, and SettleAnswers drops
// those an earlier import posted, however the sheet wrapped their lines.
func TestAnswersArePlannedAndSettled(t *testing.T) {
	answered := dealRow("r1", "1.1", api.KindRequest, "Board minutes", "s1")
	answered.LatestAnswer = &api.AnswerPreview{Source: api.SourceImport}
	current := []api.DealRequest{
		dealRow("s1", "1", api.KindSection, "Corporate", ""),
		answered,
		dealRow("r2", "1.2", api.KindRequest, "Share register", "s1"),
		dealRow("r4", "2", api.KindRequest, "Tax returns", ""),
	}
	sheet := sheetOf(t, "Number,Kind,Title,Seller comments\n"+
		"1,section,Corporate,Sections take no answer\n"+
		"1.1,request,Board minutes,\"Minutes are in\r\nfolder 3.\"\n"+
		"1.2,request,Share register,In the data room.\n"+
		"1.3,request,Option plan,To follow.\n"+
		"1.4,request,No answer yet,\n"+
		"2,request,Tax returns FY24,Filed.\n")
	plan, err := Build(sheet, current, nil, Options{})
	if err != nil || len(plan.Problems) != 0 {
		t.Fatalf("%v %+v", err, plan.Problems)
	}
	if plan.Columns["response"] != "Seller comments" {
		t.Errorf("columns = %v, want the response read from Seller comments", plan.Columns)
	}
	answers := func() map[string]string {
		out := map[string]string{}
		for _, it := range plan.Items {
			if it.Answer != "" {
				out[it.Number] = it.Answer
			}
		}
		return out
	}
	got := answers()
	want := map[string]string{"1.1": "Minutes are in\nfolder 3.", "1.2": "In the data room.", "1.3": "To follow."}
	if len(got) != len(want) || got["1.1"] != want["1.1"] || got["1.2"] != want["1.2"] || got["1.3"] != want["1.3"] {
		t.Errorf("answers = %q, want %q (a section and a conflicting row post none)", got, want)
	}
	if !strings.Contains(strings.Join(plan.Warnings, "\n"), "1 is a section") || !strings.Contains(strings.Join(plan.Warnings, "\n"), "2 on the deal is another request") {
		t.Errorf("warnings %q do not say which answers are not posted", plan.Warnings)
	}
	// Only 1.1 has a response on the deal: only its conversation is read.
	if ids := plan.AnswerRows(); len(ids) != 1 || ids[0] != "r1" {
		t.Errorf("AnswerRows = %v, want [r1]", ids)
	}
	plan.SettleAnswers(map[string][]string{"r1": {"Minutes are in\nfolder 3.  "}})
	if got := answers(); len(got) != 2 || got["1.1"] != "" || plan.Summary.Answers != 2 || plan.Summary.AnswersOnDeal != 1 {
		t.Errorf("after settling: answers %q, summary %+v; want 1.2 and 1.3 to post, 1.1 on the deal", got, plan.Summary)
	}
}
