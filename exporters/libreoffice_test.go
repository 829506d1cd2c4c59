package exporters

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// libreOffice finds the LibreOffice binary, or skips the test with how to
// get it.
func libreOffice(t *testing.T) string {
	t.Helper()
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
	for _, want := range []string{"Number,Kind,Title", "1.10,request,Board minutes", "Certificate of incorporation", "2026-12-01"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("LibreOffice shows no %q:\n%s", want, got)
		}
	}

	resaved := convert(t, lo, src, "xlsx", filepath.Join(dir, "xlsx"))
	s, err := ReadFile(resaved, ReadOptions{})
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
