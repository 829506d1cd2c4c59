package world

import (
	"errors"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/keys"
	"github.com/dealctl/dealctl/internal/store"
)

// key creates or updates a key. An existing key keeps its secret unless
// the file gives one (only the hash is stored, and someone may be using
// it), and keeps its creation time, revocation and — unless the file
// gives expires_at — an expiry counted from its creation, so that
// re-applying a file changes nothing.
func (a *applier) key(k *Key, users map[string]User) error {
	id, err := a.id(RefKey, k.Key)
	if err != nil {
		return err
	}
	row, err := a.tx.APIKey(id)
	exists := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if !exists {
		row = store.APIKey{ID: id, CreatedAt: a.now}
	}
	secret := k.Secret
	if secret == "" && !exists {
		if secret, err = keys.Generate(); err != nil {
			return err
		}
	}
	if secret != "" {
		row.Prefix, row.Hash = keys.Prefix(secret), keys.Hash(secret)
	}
	row.UserID, row.Name, row.Access = a.res.Users[k.User], k.Name, api.KeyAccess(k.Access)
	row.DealIDs = nil
	for _, d := range k.Deals {
		row.DealIDs = append(row.DealIDs, a.res.Deals[d])
	}
	if k.expiresAt != nil {
		row.ExpiresAt = *k.expiresAt
	} else {
		row.ExpiresAt = row.CreatedAt.Add(k.expiresIn)
	}
	if err := a.tx.PutAPIKey(row); err != nil {
		return err
	}
	a.res.Keys[k.Key] = KeyResult{ID: id, Secret: secret, Prefix: row.Prefix, Name: k.Name, User: k.User,
		Email: strings.TrimSpace(users[k.User].Email), Access: row.Access}
	return nil
}
