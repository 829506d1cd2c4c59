package admin

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestAdminFilesAttachKilledIsPurged kills an attach into the database
// mid-file: the chunks it wrote stay while it could still be running,
// and go once older than any attach can be.
func TestAdminFilesAttachKilledIsPurged(t *testing.T) {
	t.Parallel()
	dbPath, _ := seededDB(t)
	enc, _ := json.Marshal([]string{"files", "attach", "--db", dbPath, "-d", "Falcon", "--request", "1.1", "--name", "pack.bin", "-"})
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childRoleEnv+"=admin", childArgsEnv+"="+string(enc))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Three chunks and a bit; then the attach waits for more, and dies.
	if _, err := stdin.Write(bytes.Repeat([]byte("data pack "), 330_000)); err != nil {
		t.Fatal(err)
	}
	ro, err := sql.Open("sqlite", "file:"+dbPath+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	pending := func() int {
		t.Helper()
		var n int
		if err := ro.QueryRow("SELECT COUNT(*) FROM blob_chunks WHERE blob LIKE 'pending:%'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for deadline := time.Now().Add(time.Minute); pending() < 3; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the attach wrote no chunks")
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if n := pending(); n != 3 {
		t.Fatalf("%d pending chunks after the kill, want 3", n)
	}

	// The next attach, the same day: they might be a live attach's; kept.
	p := t.TempDir() + "/small.pdf"
	if err := os.WriteFile(p, []byte("%PDF small"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := runAdmin(t, dbPath, "", "files", "attach", "-d", "Falcon", "--request", "1.1", p); err != nil {
		t.Fatal(err)
	}
	if n := pending(); n != 3 {
		t.Fatalf("%d pending chunks after an attach the same day, want the 3 kept", n)
	}
	// A day and more later (what an attach then runs), they go.
	db := openTestDB(t, dbPath)
	if n, err := db.PurgeAbandonedUploads(context.Background(), time.Now().Add(25*time.Hour)); err != nil || n != 1 {
		t.Fatalf("PurgeAbandonedUploads a day later = %d, %v; want 1", n, err)
	}
	if n := pending(); n != 0 {
		t.Errorf("%d pending chunks left", n)
	}
}
