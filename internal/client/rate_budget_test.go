package client

import (
	"net/http"
	"testing"
)

func TestRateBudgetOf(t *testing.T) {
	for _, c := range []struct {
		h    http.Header
		want RateBudget
	}{
		{http.Header{"X-Ratelimit-Remaining": {"42"}, "X-Ratelimit-Limit": {"600"}}, RateBudget{42, 600}},
		{http.Header{"X-Ratelimit-Remaining": {"0"}}, RateBudget{0, -1}},
		{http.Header{"X-Ratelimit-Remaining": {"soon"}, "X-Ratelimit-Limit": {"-5"}}, RateBudget{-1, -1}},
		{http.Header{}, RateBudget{-1, -1}},
	} {
		if got := RateBudgetOf(c.h); got != c.want {
			t.Errorf("RateBudgetOf(%v) = %+v, want %+v", c.h, got, c.want)
		}
	}
}
