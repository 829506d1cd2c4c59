package world

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/keys"
	"github.com/dealctl/dealctl/internal/store"
)

// Ref kinds recorded in the store. Besides the local names of the file,
// Apply records users by email and deals by name and codename, because
// world files are the only way users and deals come to exist and the
// admin commands name them that way.
const (
	RefOrganization = "org"
	RefUser         = "user"
	RefDeal         = "deal"
	RefParty        = "party" // "deal/party"
	RefKey          = "key"
	RefMessage      = "message" // "deal/number/index"
	RefFile         = "file"    // "deal/number/index/file/k" or ".../link/k"
	RefUserEmail    = "user-email"
	RefDealName     = "deal-name" // lower-cased name or codename
)

// Reader reads a file a world file names by its path as written.
type Reader func(path string) ([]byte, error)

// DirReader reads paths relative to dir (the world file's folder);
// absolute paths are read as they are.
func DirReader(dir string) Reader {
	return func(p string) ([]byte, error) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		return os.ReadFile(p)
	}
}

// Apply creates or updates everything w names in one transaction and
// returns the ids it resolved. File paths are relative to baseDir. now is
// the time of "now" for relative dates, new rows and new keys.
func Apply(ctx context.Context, st store.Store, w *World, baseDir string, now time.Time) (*Result, error) {
	return ApplyWith(ctx, st, w, DirReader(baseDir), now)
}

// ApplyFile reads, parses and applies the world file at path; the files
// it names are relative to its folder.
func ApplyFile(ctx context.Context, st store.Store, path string, now time.Time) (*Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	w, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return Apply(ctx, st, w, filepath.Dir(path), now)
}

// ApplyWith is Apply reading files through read.
func ApplyWith(ctx context.Context, st store.Store, w *World, read Reader, now time.Time) (*Result, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	blobs, err := loadFiles(w, read)
	if err != nil {
		return nil, err
	}
	if err := checkSecretPrefixes(ctx, st, w); err != nil {
		return nil, err
	}
	now = now.UTC().Truncate(time.Microsecond) // what the store keeps
	res := newResult()
	err = st.Apply(ctx, func(tx store.AdminTx) error {
		a := &applier{tx: tx, now: now, res: res, blobs: blobs, history: w.history}
		return a.world(w)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// loadFiles reads every file before the transaction starts, so that a
// missing file fails fast and names its place, and no read holds the
// write lock.
func loadFiles(w *World, read Reader) (map[*File][]byte, error) {
	blobs := map[*File][]byte{}
	var v validator
	for i := range w.Deals {
		for j := range w.Deals[i].Requests {
			r := &w.Deals[i].Requests[j]
			for k := range r.Messages {
				for n := range r.Messages[k].Files {
					f := &r.Messages[k].Files[n]
					if f.Content != nil {
						blobs[f] = []byte(*f.Content)
						continue
					}
					data, err := read(f.Path)
					if err != nil {
						v.add(fmt.Sprintf("deals[%d].requests[%d].messages[%d].files[%d].path", i, j, k, n),
							"cannot read %q: %v", f.Path, unwrapPathError(err))
						continue
					}
					blobs[f] = data
				}
			}
		}
	}
	if len(v.problems) > 0 {
		return nil, &InvalidError{Problems: v.problems}
	}
	return blobs, nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkSecretPrefixes refuses an explicit secret whose prefix another key
// already has: keys are found by prefix, so two could not be told apart.
func checkSecretPrefixes(ctx context.Context, st store.Store, w *World) error {
	var v validator
	for i, k := range w.Keys {
		if k.Secret == "" {
			continue
		}
		other, err := st.APIKeyByPrefix(ctx, keys.Prefix(k.Secret))
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if own, err := st.Ref(ctx, RefKey, k.Key); err == nil && own == other.ID {
			continue
		}
		v.add(fmt.Sprintf("keys[%d].secret", i), "another key in the database starts with %q; choose a different secret", other.Prefix)
	}
	if len(v.problems) > 0 {
		return &InvalidError{Problems: v.problems}
	}
	return nil
}

// applier carries one Apply's transaction and what it has resolved.
type applier struct {
	tx    store.AdminTx
	now   time.Time
	res   *Result
	blobs map[*File][]byte
	// history records the events of the messages and files a world adds
	// (the demo's week of conversations), so that `activity` and the
	// TUI's activity view show them; seeded collects a deal's, recorded
	// oldest first once the deal is applied.
	history bool
	seeded  []store.Event
}

// id returns the id a local name was given before, or gives it a new one.
func (a *applier) id(kind, name string) (string, error) {
	id, _, err := a.idNew(kind, name)
	return id, err
}

// idNew is id, and whether the id is new: the row is applied for the
// first time.
func (a *applier) idNew(kind, name string) (string, bool, error) {
	id, err := a.tx.Ref(kind, name)
	if err == nil {
		return id, false, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return "", false, err
	}
	id = store.NewID()
	return id, true, a.tx.PutRef(kind, name, id)
}

// place wraps a store error with the place in the file it came from.
func place(path string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, store.ErrDuplicate) {
		return fmt.Errorf("%s: conflicts with a row already in the database (%w)", path, err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

func (a *applier) world(w *World) error {
	orgIDs := map[string]string{}
	for i, o := range w.Organizations {
		id, err := a.id(RefOrganization, o.Key)
		if err == nil {
			err = a.tx.PutOrganization(store.Organization{ID: id, Name: o.Name})
		}
		if err != nil {
			return place(fmt.Sprintf("organizations[%d]", i), err)
		}
		orgIDs[o.Key], a.res.Organizations[o.Key] = id, id
	}
	users := map[string]User{}
	for i, u := range w.Users {
		if err := a.user(u, orgIDs); err != nil {
			return place(fmt.Sprintf("users[%d]", i), err)
		}
		users[u.Key] = u
	}
	for i := range w.Deals {
		if err := a.deal(fmt.Sprintf("deals[%d]", i), &w.Deals[i], orgIDs); err != nil {
			return err
		}
	}
	for i := range w.Keys {
		if err := a.key(&w.Keys[i], users); err != nil {
			return place(fmt.Sprintf("keys[%d]", i), err)
		}
	}
	return nil
}

func (a *applier) user(u User, orgIDs map[string]string) error {
	email := strings.TrimSpace(u.Email)
	byEmail := strings.ToLower(email)
	// A user another world file created under a different key is the same
	// person when the email matches: adopt it rather than fail on the
	// unique email.
	id, err := a.tx.Ref(RefUser, u.Key)
	if errors.Is(err, store.ErrNotFound) {
		if id, err = a.tx.Ref(RefUserEmail, byEmail); err == nil {
			err = a.tx.PutRef(RefUser, u.Key, id)
		} else if errors.Is(err, store.ErrNotFound) {
			id, err = a.id(RefUser, u.Key)
		}
	}
	if err != nil {
		return err
	}
	if err := a.tx.PutUser(store.User{ID: id, OrganizationID: orgIDs[u.Organization], Name: u.Name, Email: &email}); err != nil {
		return err
	}
	a.res.Users[u.Key] = id
	return a.tx.PutRef(RefUserEmail, byEmail, id)
}
