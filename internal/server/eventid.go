package server

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/dealctl/dealctl/internal/store"
)

// eventIDs turns an event's place (seq, index) into the opaque id clients
// see, and back. The place is encrypted, not merely encoded: places are
// numbered across every event of the deal, so readable ones would show
// the counterparty a gap wherever an event it may not see (an internal
// note) was recorded. The key lives in the database, so every instance
// gives out, and reads, the same ids.
type eventIDs struct {
	block cipher.Block
}

const eventIDKeySetting = "event_id_key"

var (
	errCursorMalformed = errors.New("not an event id this server gave out")
	errCursorOtherDeal = errors.New("an event id of another deal")
)

func loadEventIDs(ctx context.Context, st store.Store) (*eventIDs, error) {
	v, err := st.Setting(ctx, eventIDKeySetting, func() (string, error) {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		return hex.EncodeToString(b[:]), nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read the event id key: %w", err)
	}
	key, err := hex.DecodeString(v)
	if err != nil || len(key) != 16 {
		return nil, fmt.Errorf("the stored event id key is malformed")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return &eventIDs{block: block}, nil
}

// dealTag binds an id to its deal, so that one deal's id is refused as
// another's cursor.
func dealTag(dealID string) uint32 {
	sum := sha256.Sum256([]byte(dealID))
	return binary.BigEndian.Uint32(sum[:4])
}

// encode is one AES block: seq (8 bytes), index (4), the deal's tag (4).
func (e *eventIDs) encode(dealID string, c store.Cursor) string {
	var plain, sealed [aes.BlockSize]byte
	binary.BigEndian.PutUint64(plain[0:8], uint64(c.Seq))
	binary.BigEndian.PutUint32(plain[8:12], uint32(c.Index))
	binary.BigEndian.PutUint32(plain[12:16], dealTag(dealID))
	e.block.Encrypt(sealed[:], plain[:])
	return base64.RawURLEncoding.EncodeToString(sealed[:])
}

func (e *eventIDs) decode(dealID, id string) (store.Cursor, error) {
	sealed, err := base64.RawURLEncoding.DecodeString(id)
	if err != nil || len(sealed) != aes.BlockSize {
		return store.Cursor{}, errCursorMalformed
	}
	var plain [aes.BlockSize]byte
	e.block.Decrypt(plain[:], sealed)
	if binary.BigEndian.Uint32(plain[12:16]) != dealTag(dealID) {
		return store.Cursor{}, errCursorOtherDeal
	}
	seq, index := binary.BigEndian.Uint64(plain[0:8]), binary.BigEndian.Uint32(plain[8:12])
	if seq > 1<<62 || index > 1<<30 {
		return store.Cursor{}, errCursorMalformed
	}
	return store.Cursor{Seq: int64(seq), Index: int(index)}, nil
}
