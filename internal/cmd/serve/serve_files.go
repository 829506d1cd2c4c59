package serve

import (
	"context"
	"fmt"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/cmd/dbopen"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// openObjectStore connects to the object store --files names, checking
// its bucket, so that a wrong name or an unreachable store stops the
// start. Without --files it returns nil.
func openObjectStore(ctx context.Context, o *serveOptions) (*blob.S3, error) {
	if o.files == "" {
		return nil, nil
	}
	return dbopen.OpenFiles(ctx, o.origins.Of("files"), o.files)
}

// checkNoFilesMoved refuses a database some of whose file contents are in
// an object store, for a server started without --files, which could
// then not serve them.
func checkNoFilesMoved(ctx context.Context, db *sqlstore.DB) error {
	moved, err := db.CountBlobsIn(ctx, store.BlobInObjectStore)
	if err != nil {
		return err
	}
	if moved > 0 {
		return fmt.Errorf("%d file contents of this database are in an object store, which this server could not serve: start it with --files s3://… (the store 'admin files migrate --to' named), or move them back with 'dealctl admin files migrate --to db --files s3://…'", moved)
	}
	return nil
}

// checkFilesFlags checks --files and --files-proxy before serve opens
// (or creates) the database.
func checkFilesFlags(o *serveOptions) error {
	if o.files == "" {
		if o.filesProxy {
			return cmdutil.UsageErrorf("--files-proxy goes with --files s3://…: without it every download goes through this server already")
		}
		return nil
	}
	return dbopen.CheckFilesURL(o.origins.Of("files"), o.files)
}

// filesWhere says where file bytes go, for the start-up log.
func filesWhere(objects *blob.S3, proxy bool) string {
	switch {
	case objects == nil:
		return "database"
	case proxy:
		return objects.String() + " (downloads through /dl)"
	}
	return objects.String() + " (presigned download links)"
}
