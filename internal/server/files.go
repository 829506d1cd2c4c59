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
	versionID := r.PathValue("version_id")
	if !api.IsID(versionID) {
		return errNotFound
	}
	versionID = canonicalID(versionID)
	f, err := s.store.File(ctx, dc.deal.ID, versionID)
	if errors.Is(err, store.ErrNotFound) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	m, err := s.store.Message(ctx, dc.deal.ID, f.MessageID)
	if err != nil {
		return err
	}
	if !dc.caller.MaySeeMessage(m.PartyID, m.Internal) {
		return errNotFound
	}
	if !f.Downloadable() || f.Name == nil {
		return api.NewError(api.CodeConflict, api.ReasonNotDownloadable)
	}
	// The audit trail is written before the link is given: a link whose
	// issue could not be recorded is not issued.
	if err := s.recordDownload(ctx, api.EventLinkIssued, f, m, dc.seat.ID); err != nil {
		return err
	}
	expires := s.now().Add(s.linkTTL).UTC().Truncate(1e9)
	token := s.signer.Sign(linkClaims{DealID: dc.deal.ID, VersionID: f.VersionID, PersonID: dc.seat.ID, Expires: expires})
	writeJSON(w, http.StatusOK, api.DownloadLink{
		URL: s.baseURL + "/dl/" + token, ExpiresAt: expires, Filename: *f.Name, Size: *f.Size, ContentType: contentType(f),
	})
	return nil
}

func contentType(f store.File) string {
	if f.ContentType != nil && *f.ContentType != "" {
		return *f.ContentType
	}
	return "application/octet-stream"
}

// download streams a file for a valid, unexpired token, without a key.
// It checks again that the person is still on the deal.
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
	f, err := s.store.File(ctx, claims.DealID, claims.VersionID)
	if err != nil || !f.Downloadable() || f.Name == nil {
		s.writeError(w, r, errNotFound)
		return
	}
	if !s.personStillOnDeal(r, claims) {
		s.writeError(w, r, errNotFound)
		return
	}
	// A fetch is recorded before a byte is sent (a HEAD sends none).
	if r.Method == http.MethodGet {
		m, err := s.store.Message(ctx, claims.DealID, f.MessageID)
		if err == nil {
			err = s.recordDownload(ctx, api.EventFileFetched, f, m, claims.PersonID)
		}
		if err != nil {
			s.writeError(w, r, fmt.Errorf("file %s: recording the download: %w", f.VersionID, err))
			return
		}
	}
	blob, size, err := s.store.OpenBlob(ctx, f.SHA256)
	if err != nil {
		s.writeError(w, r, fmt.Errorf("file %s: %w", f.VersionID, err))
		return
	}
	defer blob.Close()
	h := w.Header()
	h.Set("Content-Type", contentType(f))
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": *f.Name}))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = io.Copy(w, blob)
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

func (s *Server) personStillOnDeal(r *http.Request, c linkClaims) bool {
	people, err := s.store.People(r.Context(), c.DealID)
	if err != nil {
		return false
	}
	for _, p := range people {
		if p.ID == c.PersonID {
			return p.Joined
		}
	}
	return false
}
