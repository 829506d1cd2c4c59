package blob

import (
	"strings"
	"testing"
)

func TestParseS3URL(t *testing.T) {
	loc, err := ParseS3URL("s3://deal-files/prod/eu?endpoint=http://127.0.0.1:7070&region=eu-west-1&path-style=true")
	if err != nil {
		t.Fatal(err)
	}
	if loc.Bucket != "deal-files" || loc.Prefix != "prod/eu/" || loc.Endpoint != "127.0.0.1:7070" || loc.Secure || loc.Region != "eu-west-1" || loc.PathStyle == nil || !*loc.PathStyle {
		t.Errorf("parsed %+v", loc)
	}
	aws, err := ParseS3URL("s3://deal-files")
	if err != nil || aws.Endpoint != "s3.us-east-1.amazonaws.com" || !aws.Secure || aws.Prefix != "" || aws.PathStyle != nil {
		t.Errorf("AWS default = %+v, %v", aws, err)
	}
	for raw, want := range map[string]string{
		"https://bucket":                        "not an s3:// URL",
		"s3:///prefix":                          "names no bucket",
		"s3://key:secret@bucket":                "must not carry credentials",
		"s3://b":                                "cannot be shorter than 3 characters",
		"s3://Deal_Files/prod":                  "lowercase letters, digits, dots and hyphens",
		"s3://bkt?endpoint=127.0.0.1:9000":      "give http://HOST:PORT",
		"s3://bkt?endpoint=http://h:1/path":     "without a path",
		"s3://bkt?path-style=maybe":             "give true or false",
		"s3://bkt?endpiont=http://127.0.0.1:90": `unknown parameter "endpiont"`,
	} {
		if _, err := ParseS3URL(raw); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseS3URL(%q) = %v, want an error saying %q", raw, err, want)
		}
	}
}

func FuzzParseS3URL(f *testing.F) {
	f.Add("s3://b/p?endpoint=http://127.0.0.1:1&region=r&path-style=true")
	f.Fuzz(func(t *testing.T, raw string) {
		loc, err := ParseS3URL(raw)
		if err == nil && (loc.Bucket == "" || loc.Endpoint == "" || (loc.Prefix != "" && !strings.HasSuffix(loc.Prefix, "/"))) {
			t.Errorf("ParseS3URL(%q) accepted %+v", raw, loc)
		}
	})
}
