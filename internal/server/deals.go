package server

import (
	"net/http"
	"slices"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

func (s *Server) getMe(w http.ResponseWriter, r *http.Request, c *call) error {
	org, err := s.organization(r.Context(), c.user.OrganizationID)
	if err != nil {
		return err
	}
	k := c.key
	writeJSON(w, http.StatusOK, api.Me{
		User:         api.User{ID: c.user.ID, Name: c.user.Name, Email: c.user.Email},
		Organization: api.Organization{ID: org.ID, Name: org.Name},
		Key:          api.Key{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Access: k.Access, DealIDs: k.DealIDs, ExpiresAt: k.ExpiresAt.UTC()},
	})
	return nil
}

// listDeals lists the deals the key reaches: those its user has joined;
// archived ones only for their project admins.
func (s *Server) listDeals(w http.ResponseWriter, r *http.Request, c *call) error {
	deals, err := s.store.UserDeals(r.Context(), c.user.ID)
	if err != nil {
		return err
	}
	var reach []store.Deal
	var ids []string
	for _, d := range deals {
		if c.key.DealIDs != nil && !slices.Contains(c.key.DealIDs, d.ID) {
			continue
		}
		if !d.Joined || !domain.DealVisible(d.Archived, d.IsProjectAdmin) {
			continue
		}
		reach = append(reach, d.Deal)
		ids = append(ids, d.ID)
	}
	parties, err := s.store.Parties(r.Context(), ids...)
	if err != nil {
		return err
	}
	out := make([]api.Deal, 0, len(reach))
	for _, d := range reach {
		out = append(out, apiDeal(d, parties))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) getDeal(w http.ResponseWriter, r *http.Request, c *call) error {
	dc, err := s.reachDeal(r.Context(), c, r.PathValue("deal_id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, api.DealDetail{
		Deal: apiDeal(dc.deal, dc.members.parties),
		Me:   api.Seat{ParticipantID: dc.seat.ID, PartyID: dc.seat.PartyID, Access: dc.seat.Access, IsProjectAdmin: dc.seat.IsProjectAdmin},
	})
	return nil
}

func (s *Server) listPeople(w http.ResponseWriter, r *http.Request, c *call) error {
	dc, err := s.reachDeal(r.Context(), c, r.PathValue("deal_id"))
	if err != nil {
		return err
	}
	out := make([]api.Person, 0, len(dc.members.people))
	for _, p := range dc.members.people {
		out = append(out, apiPerson(p))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
