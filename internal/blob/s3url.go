package blob

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/minio/minio-go/v7/pkg/s3utils"
)

// S3Location is where an S3 store keeps blobs, as a URL names it:
//
//	s3://BUCKET[/PREFIX][?endpoint=URL&region=REGION&path-style=true|false]
//
// Without endpoint the store is AWS S3 in region (default us-east-1).
// path-style defaults to the client's choice: virtual-hosted buckets on
// AWS, path-style elsewhere (MinIO, Ceph, versitygw on a local port).
// Credentials never appear in the URL: they come from the usual AWS
// environment variables, shared files or instance role.
type S3Location struct {
	Bucket    string
	Prefix    string // "" or ending in "/"
	Endpoint  string // host[:port]
	Secure    bool   // https
	Region    string
	PathStyle *bool // nil: the client decides
}

// ParseS3URL reads an s3:// URL, saying what is wrong and how to write it.
func ParseS3URL(raw string) (S3Location, error) {
	const how = "write s3://BUCKET/PREFIX?endpoint=https://HOST:PORT&region=REGION"
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "s3" {
		return S3Location{}, fmt.Errorf("%q is not an s3:// URL: %s", raw, how)
	}
	if u.User != nil {
		return S3Location{}, fmt.Errorf("the s3:// URL must not carry credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) instead")
	}
	loc := S3Location{Bucket: u.Host, Region: "us-east-1", Secure: true}
	if loc.Bucket == "" {
		return loc, fmt.Errorf("%q names no bucket: %s", raw, how)
	}
	if err := s3utils.CheckValidBucketNameStrict(loc.Bucket); err != nil {
		return loc, fmt.Errorf("%q: bucket %q: %v: S3 bucket names are 3 to 63 lowercase letters, digits, dots and hyphens", raw, loc.Bucket, err)
	}
	if p := strings.Trim(u.Path, "/"); p != "" {
		loc.Prefix = p + "/"
	}
	q := u.Query()
	for name := range q {
		switch name {
		case "endpoint", "region", "path-style":
		default:
			return loc, fmt.Errorf("%q: unknown parameter %q (known: endpoint, region, path-style)", raw, name)
		}
	}
	if r := q.Get("region"); r != "" {
		loc.Region = r
	}
	if ps := q.Get("path-style"); ps != "" {
		b, err := strconv.ParseBool(ps)
		if err != nil {
			return loc, fmt.Errorf("%q: path-style=%q: give true or false", raw, ps)
		}
		loc.PathStyle = &b
	}
	ep := q.Get("endpoint")
	if ep == "" {
		loc.Endpoint = "s3." + loc.Region + ".amazonaws.com"
		return loc, nil
	}
	e, err := url.Parse(ep)
	if err != nil || (e.Scheme != "http" && e.Scheme != "https") || e.Host == "" || (e.Path != "" && e.Path != "/") {
		return loc, fmt.Errorf("%q: endpoint=%q: give http://HOST:PORT or https://HOST:PORT, without a path", raw, ep)
	}
	loc.Endpoint, loc.Secure = e.Host, e.Scheme == "https"
	return loc, nil
}

// String is the location as a URL, safe to print (it holds no secret).
func (l S3Location) String() string {
	scheme := "https"
	if !l.Secure {
		scheme = "http"
	}
	s := "s3://" + l.Bucket + "/" + l.Prefix + "?endpoint=" + scheme + "://" + l.Endpoint + "&region=" + l.Region
	if l.PathStyle != nil {
		s += "&path-style=" + strconv.FormatBool(*l.PathStyle)
	}
	return s
}
