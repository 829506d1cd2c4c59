package sqlstore

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/storetest"
)

func openSQLiteTest(t *testing.T) *DB {
	t.Helper()
	return openSQLitePath(t, filepath.Join(t.TempDir(), "dealctl.db"))
}

func openSQLitePath(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestSQLiteConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) store.Store { return openSQLiteTest(t) })
}

func TestSQLiteDSNForms(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, dsn := range []string{filepath.Join(dir, "a.db"), "sqlite:" + filepath.Join(dir, "b.db"), filepath.Join(dir, "nested", "with space", "c.db")} {
		db, err := Open(context.Background(), dsn)
		if err != nil {
			t.Errorf("Open(%q): %v", dsn, err)
			continue
		}
		if db.Dialect() != SQLite {
			t.Errorf("Open(%q).Dialect() = %s", dsn, db.Dialect())
		}
		db.Close()
	}
	path := filepath.Join(dir, "nested", "with space", "c.db")
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not at the path given: %v", err)
	}
}

// TestSQLiteBlobsDeduplicated looks under the interface: the same bytes
// attached twice are one blob row.
func TestSQLiteBlobsDeduplicated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openSQLiteTest(t)
	ids := seedMinimal(t, db)
	for _, name := range []string{"a.pdf", "b.pdf", "c.pdf"} {
		if _, err := db.AttachFile(ctx, store.File{DealID: ids.deal, MessageID: ids.message, Name: &name, Scanned: true}, []byte("same bytes")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.AttachFile(ctx, store.File{DealID: ids.deal, MessageID: ids.message, Scanned: true}, []byte("other bytes")); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.read.QueryRowContext(ctx, "SELECT COUNT(*) FROM blobs").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("blobs = %d, want 2 (one per distinct content)", n)
	}
}

func TestSQLiteBackup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openSQLiteTest(t)
	ids := seedMinimal(t, db)
	copyPath := filepath.Join(t.TempDir(), "backup.db")
	if err := db.Backup(ctx, copyPath); err != nil {
		t.Fatal(err)
	}
	restored := openSQLitePath(t, copyPath)
	if _, err := restored.Message(ctx, ids.deal, ids.message); err != nil {
		t.Errorf("backup lacks the message: %v", err)
	}
}

func TestSQLiteRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "dealctl.db")
	db := openSQLitePath(t, path)
	if _, err := db.write.ExecContext(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err := Open(ctx, path); err == nil {
		db.Close()
		t.Fatal("Open accepted a schema newer than this build")
	} else if !strings.Contains(err.Error(), "9999") {
		t.Errorf("error does not say which version: %v", err)
	}
}

type minimalIDs struct{ deal, party, person, request, message string }

// seedMinimal writes the least a message needs, for tests outside the
// conformance suite.
func seedMinimal(t *testing.T, s store.Store) minimalIDs {
	t.Helper()
	ids := minimalIDs{deal: store.NewID(), party: store.NewID(), request: store.NewID()}
	org, user := store.NewID(), store.NewID()
	err := s.Apply(context.Background(), func(tx store.AdminTx) error {
		for _, step := range []func() error{
			func() error { return tx.PutOrganization(store.Organization{ID: org, Name: "Org"}) },
			func() error { return tx.PutUser(store.User{ID: user, OrganizationID: org}) },
			func() error {
				return tx.PutDeal(store.Deal{ID: ids.deal, Name: "Deal", Codename: "D", Timezone: "UTC"})
			},
			func() error {
				return tx.PutParty(store.Party{ID: ids.party, DealID: ids.deal, Side: api.SideSell, IsOwner: true})
			},
			func() (err error) {
				ids.person, err = tx.PutPerson(store.Person{DealID: ids.deal, UserID: user, PartyID: ids.party, Access: api.AccessAdmin, Role: api.RolePrincipal, Joined: true})
				return err
			},
			func() error {
				_, err := tx.PutRequest(store.Request{ID: ids.request, DealID: ids.deal, Kind: api.KindSection, Number: "1", Title: "Section",
					Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryBusiness})
				return err
			},
		} {
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := s.PostMessage(context.Background(), store.PostMessage{Message: store.Message{DealID: ids.deal, RequestID: ids.request,
		PartyID: ids.party, AuthorID: &ids.person, Kind: api.MessageResponse, Source: api.SourceWeb, Format: api.FormatMarkdown, Text: "hello"}})
	if err != nil {
		t.Fatal(err)
	}
	ids.message = m.ID
	return ids
}

// The crash test: a child process writes in a loop and prints the id of
// every write the store acknowledged; the parent kills it with SIGKILL
// at a random moment, reopens the database and expects every printed id.
const crashChildEnv = "DEALCTL_CRASH_CHILD_DB"

func TestSQLiteSurvivesKill(t *testing.T) {
	t.Parallel()
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(path)
		return
	}
	if testing.Short() {
		t.Skip("kills a child process in a loop")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	setup, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ids := seedMinimal(t, setup)
	setup.Close()
	if err := os.WriteFile(path+".ids", []byte(ids.deal+" "+ids.request+" "+ids.party+" "+ids.person), 0o600); err != nil {
		t.Fatal(err)
	}

	total := 0
	for round := range 4 {
		acked := runAndKill(t, path, time.Duration(150+rand.IntN(500))*time.Millisecond)
		total += len(acked)
		db, err := Open(context.Background(), path)
		if err != nil {
			t.Fatalf("round %d: reopening after kill: %v", round, err)
		}
		var check string
		if err := db.read.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
			t.Errorf("round %d: integrity_check = %q, %v", round, check, err)
		}
		missing := 0
		for _, a := range acked {
			var err error
			switch a.kind {
			case "r":
				_, err = db.Request(context.Background(), ids.deal, a.id)
			case "m":
				_, err = db.Message(context.Background(), ids.deal, a.id)
			}
			if err != nil {
				missing++
				if missing <= 5 {
					t.Errorf("round %d: acknowledged %s %s lost after kill -9: %v", round, a.kind, a.id, err)
				}
			}
		}
		if missing > 5 {
			t.Errorf("round %d: %d acknowledged writes lost in all", round, missing)
		}
		db.Close()
	}
	if total == 0 {
		t.Fatal("the child acknowledged no writes: the test proved nothing")
	}
	t.Logf("%d acknowledged writes checked across the kills", total)
}

type ack struct{ kind, id string }

func runAndKill(t *testing.T, path string, after time.Duration) []ack {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSQLiteSurvivesKill$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan []ack, 1)
	go func() {
		var acked []ack
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				break // a line cut by the kill was never acknowledged in full
			}
			kind, id, ok := strings.Cut(strings.TrimSpace(line), " ")
			if ok && (kind == "r" || kind == "m") {
				acked = append(acked, ack{kind, id})
			}
		}
		lines <- acked
	}()
	time.Sleep(after)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	acked := <-lines
	cmd.Wait()
	return acked
}

// crashChild writes until it is killed. It prints an id only once the
// store returned success, which is exactly what a server's 2xx means.
func crashChild(path string) {
	raw, err := os.ReadFile(path + ".ids")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	f := strings.Fields(string(raw))
	deal, section, party, person := f[0], f[1], f[2], f[3]
	db, err := Open(context.Background(), path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		if i%2 == 0 {
			r, err := db.CreateRequest(context.Background(), store.Request{DealID: deal, ParentID: &section, Kind: api.KindRequest,
				Title: fmt.Sprint("crash ", i), Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryBusiness})
			if err != nil {
				fmt.Fprintln(os.Stderr, "create:", err)
				os.Exit(3)
			}
			fmt.Fprintln(out, "r", r.ID)
		} else {
			m, _, err := db.PostMessage(context.Background(), store.PostMessage{Message: store.Message{DealID: deal, RequestID: section,
				PartyID: party, AuthorID: &person, Kind: api.MessageResponse, Source: api.SourceWeb, Format: api.FormatMarkdown, Text: fmt.Sprint("crash ", i)}})
			if err != nil {
				fmt.Fprintln(os.Stderr, "post:", err)
				os.Exit(3)
			}
			fmt.Fprintln(out, "m", m.ID)
		}
		// Flushed per write: an id still in our buffer at the kill was
		// acknowledged to nobody, which is fine; one the parent read must
		// be on disk.
		out.Flush()
	}
}
