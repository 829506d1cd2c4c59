package serve

import (
	"context"
	"fmt"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/cli"
	"github.com/dealctl/dealctl/internal/cmd/dbopen"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// openFiles connects to the object store --files names, checking its
// bucket, so that a wrong name or an unreachable store stops the start.
// Without --files it checks that no file's bytes are in an object store,
// which this server could then not serve.
func openFiles(ctx context.Context, db *sqlstore.DB, o *serveOptions) (*blob.S3, error) {
	if o.files == "" {
		moved, err := db.CountBlobsIn(ctx, store.BlobInObjectStore)
		if err != nil {
			return nil, err
		}
		if moved > 0 {
			return nil, fmt.Errorf("%d file contents of this database are in an object store, which this server could not serve: start it with --files s3://… (the store 'admin files migrate --to' named), or move them back with 'dealctl admin files migrate --to db --files s3://…'", moved)
		}
		return nil, nil
	}
	return dbopen.OpenFiles(ctx, "--files", o.files)
}

// checkFilesFlags checks --files and --files-proxy before serve opens
// (or creates) the database.
func checkFilesFlags(o *serveOptions) error {
	if o.files == "" {
		if o.filesProxy {
			return cli.UsageErrorf("--files-proxy goes with --files s3://…: without it every download goes through this server already")
		}
		return nil
	}
	return dbopen.CheckFilesURL("--files", o.files)
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
