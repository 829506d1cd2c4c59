package importplan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

// BenchmarkBuildUnnumbered plans a sheet of 3,000 unnumbered rows under
// one section against a deal that already has 3,000 rows there: the
// case where numbering each new row once read every number taken, and
// matching its title read every row of the deal.
func BenchmarkBuildUnnumbered(b *testing.B) {
	const onDeal, inSheet = 3000, 3000
	current := []api.DealRequest{dealRow("s1", "1", api.KindSection, "Corporate", "")}
	for i := range onDeal {
		current = append(current, dealRow(fmt.Sprintf("r%d", i), fmt.Sprintf("1.%d", i+1), api.KindRequest, fmt.Sprintf("Existing %d", i), "s1"))
	}
	var csv strings.Builder
	csv.WriteString("Number,Kind,Title\n1,section,Corporate\n")
	for i := range inSheet {
		fmt.Fprintf(&csv, ",request,New request %d\n", i)
	}
	sheet, err := sheets.ReadCSV("list.csv", []byte(csv.String()))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		plan, err := Build(sheet, current, nil, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if plan.Summary.Create != inSheet {
			b.Fatalf("planned %d creates, want %d: %v", plan.Summary.Create, inSheet, plan.Problems)
		}
	}
}
