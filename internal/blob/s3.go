package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3 keeps blobs as objects named PREFIX/sha256/AB/HASH in a bucket of an
// S3-compatible store (AWS S3, MinIO, Ceph, versitygw).
type S3 struct {
	client *minio.Client
	// probe is client making one attempt per call, for Check: a start-up
	// check or a readiness probe must answer at once (a refused
	// connection took minio-go's ten retries, about 5 s, to report), and
	// whoever probes tries again by itself.
	probe *minio.Client
	loc   S3Location
}

// partSize is a multipart upload's part: the one buffer such an upload
// holds (minio-go reads a part at a time, sequentially, for a reader
// without ReadAt). Only a content over singlePutMax and a stream of
// unknown length go in parts. 8 MiB keeps an attach well under 64 MiB of
// memory; a file of known size gets parts as large as its size needs
// (1 GiB per part for a file of 9 TiB). A stream of unknown length gets
// pipePartSize, which lets 160 GiB through a pipe (10,000 parts).
const (
	partSize     = 8 << 20
	pipePartSize = 16 << 20
)

// singlePutMax is the most one PUT may carry on AWS S3 (5 GiB): a content
// of known size up to it is uploaded in one request.
const singlePutMax = 5 << 30

// maxParts is S3's limit on the parts of one upload, less a margin.
const maxParts = 9_000

// OpenS3 connects to the store an s3:// URL names and checks that its
// bucket is there, so that a wrong name or an unreachable endpoint stops
// a server at start rather than at the first upload.
func OpenS3(ctx context.Context, rawURL string) (*S3, error) {
	loc, err := ParseS3URL(rawURL)
	if err != nil {
		return nil, err
	}
	opts := &minio.Options{
		// The usual AWS sources, in the AWS SDKs' order: environment,
		// shared credentials file (AWS_PROFILE), then the instance's or
		// container's role.
		Creds: credentials.NewChainCredentials([]credentials.Provider{
			&credentials.EnvAWS{}, &credentials.FileAWSCredentials{}, &credentials.IAM{},
		}),
		Secure: loc.Secure,
		// A region known up front keeps presigning local: minio-go asks
		// the bucket's location only when it has none.
		Region: loc.Region,
	}
	if loc.PathStyle != nil {
		opts.BucketLookup = minio.BucketLookupDNS
		if *loc.PathStyle {
			opts.BucketLookup = minio.BucketLookupPath
		}
	}
	client, err := minio.New(loc.Endpoint, opts)
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", loc, err)
	}
	once := *opts
	once.MaxRetries = 1
	probe, err := minio.New(loc.Endpoint, &once)
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", loc, err)
	}
	s := &S3{client: client, probe: probe, loc: loc}
	if err := s.Check(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// String names the store without secrets.
func (s *S3) String() string { return s.loc.String() }

// Check says whether the bucket answers: for start-up and /readyz.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.probe.BucketExists(ctx, s.loc.Bucket)
	if err != nil {
		switch minio.ToErrorResponse(err).Code {
		case "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "InvalidToken":
			return fmt.Errorf("the object store %s refused the credentials (%v): check AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_PROFILE, and that they may list the bucket: %w", s.loc, err, ErrDenied)
		}
		return fmt.Errorf("cannot reach the object store %s: %w (check the endpoint, the network and the AWS credentials)", s.loc, err)
	}
	if !ok {
		return fmt.Errorf("the object store %s has no bucket %q: create it (e.g. aws s3 mb s3://%s) or fix the URL: %w", s.loc, s.loc.Bucket, s.loc.Bucket, ErrNoBucket)
	}
	return nil
}

func (s *S3) key(sha string) string {
	return s.loc.Prefix + "sha256/" + sha[:2] + "/" + sha
}

// Put stores r's bytes. A regular file is hashed first, so that bytes
// already stored are not sent again and the upload goes straight to its
// final name, in one PUT up to 5 GiB (hashed again on the way, to catch a
// file that changed). A stream of unknown length goes to a pending name
// and is copied to its final name inside the store once its hash is
// known.
func (s *S3) Put(ctx context.Context, r io.Reader) (Info, error) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return s.putFile(ctx, f)
		}
	}
	pending := s.loc.Prefix + "pending/" + uuid.NewString()
	h := NewHashingReader(r)
	if _, err := s.client.PutObject(ctx, s.loc.Bucket, pending, h, -1, putOptions(pipePartSize)); err != nil {
		return Info{}, fmt.Errorf("upload to %s: %w", s.loc, err)
	}
	defer func() {
		_ = s.client.RemoveObject(context.WithoutCancel(ctx), s.loc.Bucket, pending, minio.RemoveObjectOptions{})
	}()
	info := h.Info()
	if got, err := s.Stat(ctx, info.SHA256); err == nil && got.Size == info.Size {
		return info, nil
	}
	// ComposeObject copies inside the store, in parts when the object is
	// over the 5 GiB a single copy allows.
	dst := minio.CopyDestOptions{Bucket: s.loc.Bucket, Object: s.key(info.SHA256)}
	src := minio.CopySrcOptions{Bucket: s.loc.Bucket, Object: pending}
	if _, err := s.client.ComposeObject(ctx, dst, src); err != nil {
		return Info{}, fmt.Errorf("store %s in %s: %w", info.SHA256, s.loc, err)
	}
	return info, nil
}

func (s *S3) putFile(ctx context.Context, f *os.File) (Info, error) {
	start, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return Info{}, err
	}
	want, err := Hash(f)
	if err != nil {
		return Info{}, err
	}
	if got, err := s.Stat(ctx, want.SHA256); err == nil && got.Size == want.Size {
		return want, nil // stored already: each content once
	}
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		return Info{}, err
	}
	if err := s.PutVerified(ctx, f, want); err != nil {
		return Info{}, err
	}
	return want, nil
}

// PutVerified uploads r, whose hash and size are known (want), straight
// to its final name, hashing it on the way: bytes that turn out to
// differ are removed again and the error is ErrChanged.
//
// Up to singlePutMax it is one PUT streamed from r: no part is buffered
// here, and the store writes the object once (a multipart upload's parts
// are copied again into the object when it completes). Over a source
// that can seek (a file), minio-go may retry the request: the body
// rewinds and its hash starts again.
func (s *S3) PutVerified(ctx context.Context, r io.Reader, want Info) error {
	body := newUploadBody(r, want.Size)
	part := max(uint64(partSize), uint64(want.Size/maxParts+1))
	opts := putOptions(part)
	opts.DisableMultipart = want.Size <= singlePutMax
	key := s.key(want.SHA256)
	if _, err := s.client.PutObject(ctx, s.loc.Bucket, key, body, want.Size, opts); err != nil {
		return fmt.Errorf("upload to %s: %w", s.loc, err)
	}
	if got := body.Info(); got != want {
		_ = s.client.RemoveObject(context.WithoutCancel(ctx), s.loc.Bucket, key, minio.RemoveObjectOptions{})
		return ErrChanged
	}
	// A source longer than said changed too. (The stored object holds
	// the bytes its name says: it stays.)
	if n, _ := io.ReadFull(r, make([]byte, 1)); n > 0 {
		return ErrChanged
	}
	return nil
}

// uploadBody is what an upload reads: its source, up to the size it is
// to have (a PUT with more bytes than its Content-Length would fail
// after the store had taken them), hashed. It hides the source's ReadAt,
// which would make minio-go upload parts in parallel, a buffer each, and
// out of the order a hash needs.
type uploadBody interface {
	io.Reader
	Info() Info
}

func newUploadBody(r io.Reader, size int64) uploadBody {
	rs, ok := r.(io.ReadSeeker)
	if !ok {
		return NewHashingReader(io.LimitReader(r, size))
	}
	start, err := rs.Seek(0, io.SeekCurrent)
	if err != nil { // a pipe or a terminal: read once, not retried
		return NewHashingReader(io.LimitReader(r, size))
	}
	return &rewindingBody{src: rs, start: start, limit: size, h: NewHashingReader(io.LimitReader(rs, size))}
}

// rewindingBody is an upload body over a seekable source. minio-go seeks
// a body to 0 before each attempt of a request (and retries only a body
// that seeks): the source goes back to where the upload began and the
// hash starts over, so it always covers the bytes of the last attempt.
type rewindingBody struct {
	src   io.ReadSeeker
	start int64
	limit int64
	h     *HashingReader
}

func (b *rewindingBody) Read(p []byte) (int, error) { return b.h.Read(p) }

func (b *rewindingBody) Info() Info { return b.h.Info() }

func (b *rewindingBody) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekStart {
		return 0, errors.New("an upload body rewinds to its start only")
	}
	if _, err := b.src.Seek(b.start, io.SeekStart); err != nil {
		return 0, err
	}
	b.h = NewHashingReader(io.LimitReader(b.src, b.limit))
	return 0, nil
}

// putOptions are an upload's: parts of the given size, and no SHA-256 of
// the payload for the request signature, which over plain HTTP would be a
// third pass over every byte (and a fourth on the server). The bytes are
// hashed here as they go (PutVerified), which is what names them.
func putOptions(part uint64) minio.PutObjectOptions {
	return minio.PutObjectOptions{PartSize: part, DisableContentSha256: true}
}

// Open streams an object; ErrNotFound when it is not there.
func (s *S3) Open(ctx context.Context, sha string) (io.ReadCloser, int64, error) {
	if !ValidSHA256(sha) {
		return nil, 0, ErrNotFound
	}
	obj, err := s.client.GetObject(ctx, s.loc.Bucket, s.key(sha), minio.GetObjectOptions{})
	if err != nil {
		return nil, 0, s.mapErr(sha, err)
	}
	st, err := obj.Stat()
	if err != nil {
		obj.Close()
		return nil, 0, s.mapErr(sha, err)
	}
	return obj, st.Size, nil
}

// OpenAt streams an object from offset to its end (a ranged GET): for a
// download whose first bytes came from elsewhere (FollowMove).
func (s *S3) OpenAt(ctx context.Context, sha string, offset int64) (io.ReadCloser, error) {
	if !ValidSHA256(sha) {
		return nil, ErrNotFound
	}
	var opts minio.GetObjectOptions
	if offset > 0 {
		if err := opts.SetRange(offset, 0); err != nil {
			return nil, err
		}
	}
	obj, err := s.client.GetObject(ctx, s.loc.Bucket, s.key(sha), opts)
	if err != nil {
		return nil, s.mapErr(sha, err)
	}
	if _, err := obj.Stat(); err != nil {
		obj.Close()
		return nil, s.mapErr(sha, err)
	}
	return obj, nil
}

// Stat reports the size of the object stored under sha.
func (s *S3) Stat(ctx context.Context, sha string) (Info, error) {
	if !ValidSHA256(sha) {
		return Info{}, ErrNotFound
	}
	st, err := s.client.StatObject(ctx, s.loc.Bucket, s.key(sha), minio.StatObjectOptions{})
	if err != nil {
		return Info{}, s.mapErr(sha, err)
	}
	return Info{SHA256: sha, Size: st.Size}, nil
}

// Delete removes the object stored under sha (none there is no error).
func (s *S3) Delete(ctx context.Context, sha string) error {
	if !ValidSHA256(sha) {
		return ErrNotFound
	}
	return s.client.RemoveObject(ctx, s.loc.Bucket, s.key(sha), minio.RemoveObjectOptions{})
}

func (s *S3) mapErr(sha string, err error) error {
	switch minio.ToErrorResponse(err).Code {
	case minio.NoSuchKey, "NotFound":
		return fmt.Errorf("%s in %s: %w", sha, s.loc, ErrNotFound)
	}
	return fmt.Errorf("%s in %s: %w (%w)", sha, s.loc, err, ErrObjectStore)
}

// Presign issues a GET URL valid for ttl whose response carries the given
// Content-Disposition and Content-Type. It is computed here: no call
// reaches the store (the region is known, the credentials cached).
func (s *S3) Presign(ctx context.Context, sha string, ttl time.Duration, disposition, contentType string) (string, error) {
	if !ValidSHA256(sha) {
		return "", ErrNotFound
	}
	params := url.Values{}
	params.Set("response-content-disposition", disposition)
	params.Set("response-content-type", contentType)
	params.Set("response-cache-control", "private, no-store")
	u, err := s.client.PresignedGetObject(ctx, s.loc.Bucket, s.key(sha), ttl, params)
	if err != nil {
		return "", fmt.Errorf("presign %s in %s: %w", sha, s.loc, err)
	}
	return u.String(), nil
}

// IsNotFound reports whether err says a blob is not there.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
