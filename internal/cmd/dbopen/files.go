package dbopen

import (
	"context"
	"errors"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// OpenFiles connects to the object store an s3:// URL names (serve and
// admin --files), with the exit codes of a database that cannot be
// opened: a malformed URL is a usage error (2), a missing bucket not found
// (3), refused credentials not allowed (4), anything else a failure (1).
func OpenFiles(ctx context.Context, flag, rawURL string) (*blob.S3, error) {
	if err := CheckFilesURL(flag, rawURL); err != nil {
		return nil, err
	}
	s, err := blob.OpenS3(ctx, rawURL)
	switch {
	case errors.Is(err, blob.ErrNoBucket):
		return nil, cmdutil.WithExit(cmdutil.ExitNotFound, err)
	case errors.Is(err, blob.ErrDenied):
		return nil, cmdutil.WithExit(cmdutil.ExitAuth, err)
	}
	return s, err
}

// CheckFilesURL is OpenFiles' check of the URL alone, as a usage error:
// commands call it with their other flags, before they open or create
// anything.
func CheckFilesURL(flag, rawURL string) error {
	if _, err := blob.ParseS3URL(rawURL); err != nil {
		return cmdutil.UsageErrorf("%s: %v", flag, err)
	}
	return nil
}
