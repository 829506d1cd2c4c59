package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/store"
)

// downloadLink issues a signed link, valid for linkTTL, to a file on a
// message the caller may see. Read keys may ask too.
func (s *Server) downloadLink(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	dc, err := s.reachDeal(ctx, c, r.PathValue("deal_id"))
	if err != nil {
		return err
	}
	f, m, err := s.downloadableFile(ctx, dc, r.PathValue("version_id"))
	if err != nil {
		return err
	}
	// The audit trail is written before the link is given: a link whose
	// issue could not be recorded is not issued.
	if err := s.recordDownload(ctx, api.EventLinkIssued, f, m, dc.seat.ID); err != nil {
		return err
	}
	expires := s.now().Add(s.linkTTL).UTC().Truncate(1e9)
	url, err := s.presignedURL(r, f)
	if err != nil {
		return err
	}
	if url == "" {
		token := s.signer.Sign(linkClaims{DealID: dc.deal.ID, VersionID: f.VersionID, PersonID: dc.seat.ID, KeyPrefix: c.key.Prefix, Expires: expires})
		url = s.baseURL + "/dl/" + token
	}
	writeJSON(w, http.StatusOK, api.DownloadLink{
		URL: url, ExpiresAt: expires, Filename: *f.Name, Size: *f.Size, ContentType: contentType(f),
	})
	return nil
}

// downloadableFile finds the file versionID on the deal dc reaches, as
// its caller may download it: a file on a message the caller cannot see
// (for the side they are on now) is 404, one not downloadable 409. Both a
// link's issue and every fetch of it run these checks, so that a fetch
// never passes what an issue would refuse.
func (s *Server) downloadableFile(ctx context.Context, dc *dealCall, versionID string) (store.File, store.Message, error) {
	if !api.IsID(versionID) {
		return store.File{}, store.Message{}, errNotFound
	}
	f, err := s.store.File(ctx, dc.deal.ID, canonicalID(versionID))
	if errors.Is(err, store.ErrNotFound) {
		return f, store.Message{}, errNotFound
	}
	if err != nil {
		return f, store.Message{}, err
	}
	m, err := s.store.Message(ctx, dc.deal.ID, f.MessageID)
	if err != nil {
		return f, m, err
	}
	if !dc.caller.MaySeeMessage(m.PartyID, m.Internal) {
		return f, m, errNotFound
	}
	if !f.Downloadable() || f.Name == nil {
		return f, m, api.NewError(api.CodeConflict, api.ReasonNotDownloadable)
	}
	return f, m, nil
}

// presignedURL is a URL to the object store for a file whose bytes are
// there, when links are presigned (serve --files without --files-proxy);
// "" when the link is to be /dl/{token}. Presigning is computed here: no
// call reaches the store. It expires after linkTTL by the real clock, the
// store's. Such a link cannot be revoked once issued (docs/server.md).
func (s *Server) presignedURL(r *http.Request, f store.File) (string, error) {
	if !s.presign {
		return "", nil
	}
	where, err := s.store.BlobStorage(r.Context(), f.SHA256)
	if err != nil || where != store.BlobInObjectStore {
		// In the database still (a migration under way): /dl serves it.
		return "", err
	}
	return s.objects.Presign(r.Context(), f.SHA256, s.linkTTL, attachment(*f.Name), contentType(f))
}

// attachment is the Content-Disposition of a download: the file's name,
// quoted (or RFC 2231-encoded) by mime, so that no name can break out of
// the header.
func attachment(name string) string {
	return mime.FormatMediaType("attachment", map[string]string{"filename": name})
}

func contentType(f store.File) string {
	if f.ContentType != nil && *f.ContentType != "" {
		return *f.ContentType
	}
	return "application/octet-stream"
}

// download streams a file for a valid, unexpired token, without a key.
// The fetch is checked as the link's issue was, against things as they
// are now (fetchingCall, downloadableFile), and is charged to the
// issuing key's rate budget: a link is no way around the limit.
func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	claims, err := s.signer.Verify(r.PathValue("token"), s.now())
	switch {
	case errors.Is(err, errLinkExpired):
		s.writeError(w, r, api.NewError(api.CodeForbidden, "link_expired"))
		return
	case err != nil:
		s.writeError(w, r, api.NewError(api.CodeForbidden, "link_invalid"))
		return
	}
	c, err := s.fetchingCall(ctx, claims)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	noteKeyPrefix(ctx, c.key.Prefix)
	if !s.allow(w, r, c.key.ID) {
		return
	}
	f, m, err := s.fetchableFile(ctx, c, claims)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	bytes, size, err := s.openFile(r, f)
	if err != nil {
		if errors.Is(err, blob.ErrNotFound) || errors.Is(err, store.ErrNotFound) {
			// The file is listed but its bytes are gone: the caller can do
			// nothing about it, the operator must.
			s.log.Error("file bytes missing", "file", f.VersionID, "sha256", f.SHA256, "err", err, "request_id", requestID(ctx))
			s.writeError(w, r, errNotFound)
			return
		}
		s.writeError(w, r, fmt.Errorf("file %s: %w", f.VersionID, err))
		return
	}
	// A fetch is recorded before a byte is sent (a HEAD sends none),
	// once the bytes are known to be there: the first fetch of a link
	// only, so that a burst of fetches neither queues a write each
	// behind the database's writer nor buries the download trail.
	if r.Method == http.MethodGet {
		if err := s.recordFirstFetch(ctx, r.PathValue("token"), claims, f, m); err != nil {
			_ = bytes.Close()
			s.writeError(w, r, fmt.Errorf("file %s: recording the download: %w", f.VersionID, err))
			return
		}
	}
	defer bytes.Close()
	h := w.Header()
	h.Set("Content-Type", contentType(f))
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	h.Set("Content-Disposition", attachment(*f.Name))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	if n, err := io.Copy(w, bytes); err != nil && n < size {
		s.log.Warn("download cut short", "file", f.VersionID, "sent", n, "size", size, "err", err, "request_id", requestID(ctx))
	}
}

// openFile opens a file's bytes where they are: the database, or the
// object store. A download from the database that admin files migrate
// moves meanwhile goes on from the object store (blob.FollowMove).
func (s *Server) openFile(r *http.Request, f store.File) (io.ReadCloser, int64, error) {
	rc, size, err := s.store.OpenBlob(r.Context(), f.SHA256)
	if errors.Is(err, store.ErrBlobInObjectStore) {
		if s.objects == nil {
			return nil, 0, fmt.Errorf("%w, and this server was started without --files", err)
		}
		return s.objects.Open(r.Context(), f.SHA256)
	}
	if err != nil {
		return nil, 0, err
	}
	return blob.FollowMove(r.Context(), rc, s.objects, f.SHA256), size, nil
}

// recordDownload writes a download event (audit: the owning side's
// project admins read it) by the person personID.
func (s *Server) recordDownload(ctx context.Context, t api.EventType, f store.File, m store.Message, personID string) error {
	req, err := s.store.Request(ctx, f.DealID, f.RequestID)
	if err != nil {
		return err
	}
	return s.store.RecordEvents(ctx, f.DealID, store.FileEvent(t, req, m, f, s.now().UTC(), &personID))
}
