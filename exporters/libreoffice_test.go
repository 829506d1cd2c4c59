package exporters

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

// libreOffice finds the LibreOffice binary, or skips the test with how to
// get it. With -short it skips at once: starting LibreOffice costs more
// than the rest of the package (docs/decisions.md, "What go test -short
// leaves out").
func libreOffice(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: LibreOffice is not started; the full run opens the export in it")
	}
	for _, name := range []string{"libreoffice", "soffice"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("LibreOffice is not installed, so the export is not opened in it: apt-get install -y libreoffice-calc (CI installs it)")
	return ""
}

// convert runs LibreOffice headless to convert src into dir as format,
// with a throwaway profile so parallel runs do not share a lock.
func convert(t *testing.T, lo, src, format, dir string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lo, "--headless", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--convert-to", format, "--outdir", dir, src)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("libreoffice --convert-to %s: %v\n%s", format, err, out)
	}
	ext := format
	if i := strings.Index(format, ":"); i > 0 {
		ext = format[:i]
	}
	got := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))+"."+ext)
	if _, err := os.Stat(got); err != nil {
		t.Fatalf("libreoffice wrote no %s:\n%s", got, out)
	}
	return got
}

// TestLibreOfficeOpensTheExport opens an exported workbook in LibreOffice
// and reads it back two ways: as csv of the Requests sheet (what a person
// sees), and re-saved by LibreOffice as xlsx and imported (a list that
// went through another spreadsheet program still round-trips).
func TestLibreOfficeOpensTheExport(t *testing.T) {
	lo := libreOffice(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "export.xlsx")
	var buf bytes.Buffer
	if err := WriteXLSX(&buf, sampleExport()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	csvDir := filepath.Join(dir, "csv")
	got, err := os.ReadFile(convert(t, lo, src, "csv:Text - txt - csv (StarCalc):44,34,76", csvDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Number,Title,Status", "1.10,Board minutes,complete", "Certificate of incorporation", "2026-12-01"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("LibreOffice shows no %q:\n%s", want, got)
		}
	}

	resaved := convert(t, lo, src, "xlsx", filepath.Join(dir, "xlsx"))
	s, err := sheets.ReadFile(resaved, sheets.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems) != 0 || len(s.Rows) != 3 {
		t.Fatalf("re-saved by LibreOffice: %d rows, problems %v", len(s.Rows), s.Problems)
	}
	if r := s.Rows[1]; r.Number != "1.1" || r.DueDate != "2026-12-01" || r.Body != "Certified copy.\nWith amendments." {
		t.Errorf("re-saved row = %+v", r)
	}
}

// TestLibreOfficePrintsLikeATracker has LibreOffice print the 2,200-row
// export to PDF and reads the pages back with poppler-utils: landscape
// on Letter for a deal in New York, every page of the list starting with
// the header row of what a reader needs (no body), text at 8 points or
// more, every latest answer's text whole (rows tall enough for their
// wrapped lines), e-mails and links whole, no "###" for a date too wide
// for its column, sans-serif fonts only, and the Summary's chart on a
// page of its own.
func TestLibreOfficePrintsLikeATracker(t *testing.T) {
	lo := libreOffice(t) // not with -short: printing 2,200 rows takes a while
	poppler(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "tracker.xlsx")
	e := syntheticExport(2200)
	e.Deal.Timezone = "America/New_York"
	e.People[0].Email = "alexandra.delacroix-montgomery@target-holdings.example" // a long address, printed by name
	e.People[0].Name = ptr2("Alexandra Delacroix")
	for i := range e.Rows {
		if e.Rows[i].Kind == api.KindRequest {
			e.Rows[i].LatestAnswer = &api.AnswerPreview{Preview: strings.Repeat("Attached with the side letters. ", 3)}
			if e.Rows[i].Files != nil {
				e.Rows[i].Files = append(e.Rows[i].Files, api.File{Kind: api.FileKindLink, Name: ptr2("Registry"), URL: ptr2("https://example.com/registry")})
			}
		}
	}
	var buf bytes.Buffer
	if err := WriteXLSX(&buf, e); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	pdf := convert(t, lo, src, "pdf", filepath.Join(dir, "pdf"))

	pages := pdfPages(t, pdf)
	info := runTool(t, "pdfinfo", pdf)
	if !strings.Contains(info, "Page rot:        0") || !landscape(info) || !strings.Contains(info, "(letter)") {
		t.Errorf("pages are not Letter landscape:\n%s", info)
	}
	if fonts := runTool(t, "pdffonts", pdf); strings.Contains(fonts, "Serif") {
		t.Errorf("a serif font was used (a style without a named font?):\n%s", fonts)
	}
	if pt := textPoints(t, pdf, 1); pt < 8 {
		t.Errorf("the list prints at %.1f points, want 8 or more", pt)
	}
	requests, requestRows, links := 0, 0, 0
	for _, r := range e.Rows {
		if r.Kind == api.KindRequest {
			requestRows++
			if r.Files != nil {
				links++
			}
		}
	}
	var chartPage, tablePage, registries int
	for i, text := range pages {
		first := firstLine(text)
		if strings.Contains(text, "###") {
			t.Errorf("page %d shows ### (a value too wide for its column):\n%s", i+1, text)
		}
		switch {
		case strings.HasPrefix(first, "Number") && strings.Contains(first, "Latest answer") && !strings.Contains(first, "Body"):
			requests += strings.Count(text, "side letters.")
			registries += strings.Count(text, "https://example.com/registry")
			if strings.Contains(text, "@target-holdings") {
				t.Errorf("page %d prints an e-mail where a name reads", i+1)
			}
		case strings.Contains(text, "Category") && strings.Contains(text, "Human resources"):
			tablePage = i + 1
		case strings.Contains(text, "Requests by category and status"):
			chartPage = i + 1
		default:
			t.Errorf("page %d does not start with the header row of what a reader needs (first line %q)", i+1, first)
		}
	}
	// Three sentences of each answer: none lost to a row too short.
	if requests != 3*requestRows {
		t.Errorf("the printed answers hold %d sentences, want %d (3 a request)", requests, 3*requestRows)
	}
	if registries != links {
		t.Errorf("%d second links printed whole, want %d:\n%s", registries, links, pages[0])
	}
	if tablePage == 0 || chartPage != tablePage+1 {
		t.Fatalf("Summary table on page %d, chart on page %d: want the chart on the page after the table", tablePage, chartPage)
	}
	// The PDF keeps the clipped text of a chart that crosses a page
	// break, so the table's page is looked at: blank below the table.
	if ink := inkBetween(t, pdf, tablePage, 0.4, 0.85); ink > 0 {
		t.Errorf("the Summary table's page has %d dark pixels below the table: the chart is not on a page of its own", ink)
	}
	if ink := inkBetween(t, pdf, chartPage, 0.4, 0.85); ink == 0 {
		t.Errorf("the chart's page is blank where the chart should be")
	}
}

// textPoints is the size, in points, of most of the text on a page of
// pdf: the height of a word's box (pdftotext -bbox) is 1.3 times the
// font's size for the sans-serif fonts the export names (measured: 10-point
// text printed at 100 % gives boxes 13.0 points high).
func textPoints(t *testing.T, pdf string, page int) float64 {
	t.Helper()
	p := fmt.Sprint(page)
	out := runTool(t, "pdftotext", "-bbox", "-f", p, "-l", p, pdf, "-")
	heights := map[float64]int{}
	for _, m := range wordBox.FindAllStringSubmatch(out, -1) {
		var y0, y1 float64
		fmt.Sscan(m[1], &y0)
		fmt.Sscan(m[2], &y1)
		heights[math.Round((y1-y0)*10)/10]++
	}
	most, common := 0, 0.0
	for h, n := range heights {
		if n > most {
			most, common = n, h
		}
	}
	return common / 1.3
}

var wordBox = regexp.MustCompile(`<word xMin="[0-9.]+" yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)"`)

// inkBetween renders a page in grey and counts the dark pixels between
// two fractions of its height.
func inkBetween(t *testing.T, pdf string, page int, from, to float64) int {
	t.Helper()
	out := filepath.Join(t.TempDir(), "page")
	p := fmt.Sprint(page)
	runTool(t, "pdftoppm", "-gray", "-r", "30", "-f", p, "-l", p, "-singlefile", pdf, out)
	data, err := os.ReadFile(out + ".pgm")
	if err != nil {
		t.Fatal(err)
	}
	var magic string
	var w, h, maxVal int
	r := bytes.NewReader(data)
	if _, err := fmt.Fscan(r, &magic, &w, &h, &maxVal); err != nil || magic != "P5" {
		t.Fatalf("not a binary PGM: %v", err)
	}
	pixels := data[len(data)-r.Len()+1:] // after the one blank that ends the header
	if len(pixels) < w*h {
		t.Fatalf("PGM of %d×%d has %d bytes", w, h, len(pixels))
	}
	ink := 0
	for y := int(from * float64(h)); y < int(to*float64(h)); y++ {
		for x := 0; x < w; x++ {
			if pixels[y*w+x] < 200 {
				ink++
			}
		}
	}
	return ink
}

// poppler skips the test when poppler-utils are missing, with the line to
// install them.
func poppler(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"pdfinfo", "pdftotext", "pdffonts"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed, so the printed export is not read back: apt-get install -y poppler-utils", tool)
		}
	}
}

func runTool(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return string(out)
}

// pdfPages is each page's text, laid out.
func pdfPages(t *testing.T, pdf string) []string {
	t.Helper()
	pages := strings.Split(runTool(t, "pdftotext", "-layout", pdf, "-"), "\f")
	if n := len(pages); n > 0 && strings.TrimSpace(pages[n-1]) == "" {
		pages = pages[:n-1]
	}
	if len(pages) < 2 {
		t.Fatalf("the PDF has %d pages", len(pages))
	}
	return pages
}

func firstLine(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// landscape reports whether pdfinfo's "Page size: W x H pts" is wider
// than tall.
func landscape(info string) bool {
	for _, l := range strings.Split(info, "\n") {
		var w, h float64
		if _, err := fmt.Sscanf(strings.TrimPrefix(l, "Page size:"), "%f x %f", &w, &h); err == nil && strings.HasPrefix(l, "Page size:") {
			return w > h
		}
	}
	return false
}
