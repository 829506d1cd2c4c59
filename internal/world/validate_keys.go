package world

import (
	"fmt"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/keys"
)

func (v *validator) keys(list []Key, users map[string]*User, deals map[string]*Deal) {
	seen := map[string]bool{}
	prefixes := map[string]string{}
	for i := range list {
		k := &list[i]
		kp := fmt.Sprintf("keys[%d]", i)
		if localKey(v, kp+".key", k.Key, "key", seen) {
			seen[k.Key] = true
		}
		if k.Name == "" {
			k.Name = k.Key
		}
		ref(v, kp+".user", k.User, "user", users, true)
		requiredEnum(v, kp+".access", &k.Access, api.KeyAccesses)
		if k.Deals != nil && len(k.Deals) == 0 {
			v.add(kp+".deals", "empty: leave deals out for a key that reaches every deal of its user")
		}
		for j, d := range k.Deals {
			dp := fmt.Sprintf("%s.deals[%d]", kp, j)
			if !ref(v, dp, d, "deal", deals, true) || k.User == "" {
				continue
			}
			if !onDeal(deals[d], k.User) {
				v.add(dp, "user %q is not on deal %q, so the key could not reach it", k.User, d)
			}
		}
		if k.Secret != "" {
			if err := keys.Validate(k.Secret); err != nil {
				v.add(kp+".secret", "%v", err)
			} else if other, dup := prefixes[keys.Prefix(k.Secret)]; dup {
				v.add(kp+".secret", "starts like the secret of key %q; the first %d characters identify a key", other, keys.PrefixLen)
			} else {
				prefixes[keys.Prefix(k.Secret)] = k.Key
			}
		}
		v.expiry(kp, k)
	}
}

func onDeal(d *Deal, user string) bool {
	for _, p := range d.People {
		if p.User == user {
			return true
		}
	}
	return false
}

// expiry parses expires_at or expires_in into the key.
func (v *validator) expiry(kp string, k *Key) {
	k.expiresAt, k.expiresIn = nil, DefaultKeyLifetime
	if k.ExpiresAt != "" && k.ExpiresIn != "" {
		v.add(kp+".expires_in", "give expires_at or expires_in, not both")
		return
	}
	if k.ExpiresAt != "" {
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(k.ExpiresAt))
		if err != nil {
			v.add(kp+".expires_at", "%q is not a time (RFC 3339, like 2027-01-01T00:00:00Z)", k.ExpiresAt)
			return
		}
		t = t.UTC()
		k.expiresAt = &t
	}
	if k.ExpiresIn != "" {
		d, err := ParseDuration(k.ExpiresIn)
		switch {
		case err != nil:
			v.add(kp+".expires_in", "%v", err)
		case d <= 0:
			v.add(kp+".expires_in", "%q is not a positive duration", k.ExpiresIn)
		default:
			k.expiresIn = d
		}
	}
}
