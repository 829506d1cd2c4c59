package dbpath

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/var/lib/dealctl/dealctl.db", "/var/lib/dealctl/dealctl.db"},
		{"sqlite:/tmp/x.db", "sqlite:/tmp/x.db"},
		{"postgres://db.internal/dealctl", "postgres://db.internal/dealctl"},
		{"postgres://dealctl@db.internal/dealctl", "postgres://dealctl@db.internal/dealctl"},
		{"postgres://u:s3cret@h:5432/db?sslmode=verify-full", "postgres://u:xxxxx@h:5432/db?sslmode=verify-full"},
		{"postgresql://u:s3cret@h/db", "postgresql://u:xxxxx@h/db"},
		{"postgres://u@h/db?password=s3cret", "postgres://u@h/db?password=xxxxx"},
		{"postgres://h/db?sslmode=require&password=s3cret&application_name=x", "postgres://h/db?sslmode=require&password=xxxxx&application_name=x"},
		{"postgres://h/db?PASSWORD=s3cret", "postgres://h/db?PASSWORD=xxxxx"},
		{"postgres://h/db?pass%77ord=s3cret", "postgres://h/db?pass%77ord=xxxxx"},
		{"postgres://h/db?sslpassword=s3cret&sslkey=/k", "postgres://h/db?sslpassword=xxxxx&sslkey=/k"},
		{"postgres://u:p%40ss@h/db", "postgres://u:xxxxx@h/db"},
		// Not parseable as a URL (a # or a bad port in the password):
		// everything before the last @ is hidden.
		{"postgres://u:p#s3cret@h/db", "postgres://xxxxx@h/db"},
		{"postgres://u:s3cret:x@h/db?password=s3cret%zz", "postgres://u:xxxxx@h/db?password=xxxxx"},
		{"postgres://u:s3cret@h:port/db?password=s3cret", "postgres://xxxxx@h:port/db?password=xxxxx"},
		{"postgres://u:s3cret@%zz", "postgres://xxxxx@%zz"},
		{"host=db user=u password=s3cret dbname=x", "host=db user=u password=xxxxx dbname=x"},
		{"host=db password = s3cret dbname=x", "host=db password = xxxxx dbname=x"},
		{"password='s3 cret' host=db", "password=xxxxx host=db"},
		{`password='s3\'cret x' host=db`, "password=xxxxx host=db"},
		{`password=s3\ cret host=db`, "password=xxxxx host=db"},
		{"host=db sslpassword=s3cret", "host=db sslpassword=xxxxx"},
		{"PASSWORD=s3cret", "PASSWORD=xxxxx"},
		{"password='unclosed s3cret", "password=xxxxx"},
		{"password=", "password=xxxxx"},
	} {
		got := Redact(tc.in)
		if got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.Contains(got, "s3") {
			t.Errorf("Redact(%q) = %q still shows the secret", tc.in, got)
		}
	}
}
