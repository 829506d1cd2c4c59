package domain

import "github.com/dealctl/dealctl/internal/api"

// StatusCounts counts requests by status, for progress reports and
// summaries alike.
type StatusCounts struct {
	Open     int `json:"open"`
	Partial  int `json:"partial"`
	Complete int `json:"complete"`
	Total    int `json:"total"`
}

// Add counts one request of status s.
func (c *StatusCounts) Add(s api.RequestStatus) {
	switch s {
	case api.StatusOpen:
		c.Open++
	case api.StatusPartial:
		c.Partial++
	case api.StatusComplete:
		c.Complete++
	}
	c.Total++
}
