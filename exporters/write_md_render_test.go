package exporters

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/dealctl/dealctl/internal/api"
)

// TestMarkdownExportRendersAsMeant renders the checklist with a real
// CommonMark/GFM renderer: a request's body is a paragraph of its own,
// not a lazy continuation of its details line; an overdue request says
// so; a link keeps its label and its target.
func TestMarkdownExportRendersAsMeant(t *testing.T) {
	e := sampleExport()
	e.Rows[1].DueDate = ptr2("2026-02-01") // before the export's day, and not complete
	e.Messages["r-1"][0].Files = []api.File{{Kind: api.FileKindLink, Name: ptr2("Registry"), URL: ptr2("https://example.com/doc")}}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, e); err != nil {
		t.Fatal(err)
	}
	var html bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(md.Bytes(), &html); err != nil {
		t.Fatal(err)
	}
	out := html.String()
	paragraphs := regexp.MustCompile(`(?s)<p>.*?</p>`).FindAllString(out, -1)
	var details, body string
	for _, p := range paragraphs {
		if strings.Contains(p, "Certificate of incorporation") {
			details = p
		}
		if strings.Contains(p, "Certified copy.") {
			body = p
		}
	}
	if details == "" || body == "" || details == body {
		t.Errorf("the body is not a paragraph of its own:\n%s\n--- from\n%s", out, md.String())
	}
	if !strings.Contains(details, "<strong>overdue</strong>, due 2026-02-01") {
		t.Errorf("the overdue request is not marked: %s", details)
	}
	if !strings.Contains(out, "Board minutes — complete · low · human resources</p>") {
		t.Errorf("a complete request is marked overdue, or its category reads as an API word:\n%s", out)
	}
	if !strings.Contains(out, `Registry <a href="https://example.com/doc">https://example.com/doc</a>`) {
		t.Errorf("the link lost its label or target:\n%s", out)
	}
}
