package client

import (
	"net/http"
	"strconv"

	"github.com/dealctl/dealctl/internal/api"
)

// RateBudget is the rate budget an answer reports in X-RateLimit-Remaining
// and X-RateLimit-Limit (dealctl's server sends them; other servers may
// not). Each is -1 where the answer did not carry it, or carried no
// number. The TUI's meter and the import's pacer both read answers
// through it.
type RateBudget struct{ Remaining, Limit int }

// RateBudgetOf reads the budget h reports.
func RateBudgetOf(h http.Header) RateBudget {
	number := func(name string) int {
		if v, err := strconv.Atoi(h.Get(name)); err == nil && v >= 0 {
			return v
		}
		return -1
	}
	return RateBudget{Remaining: number(api.RateLimitRemainingHeader), Limit: number(api.RateLimitLimitHeader)}
}
