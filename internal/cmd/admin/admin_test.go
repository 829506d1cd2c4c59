package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/iostreams"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
)

const exampleWorld = "../../../testdata/worlds/contract-example.yaml"

// testAdminCmd is `dealctl admin` on streams that are no terminal, its
// usage mistakes refused as the whole tree refuses them; the caller
// points its output where it wants.
func testAdminCmd() *cobra.Command {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmd(ios)
	cmdutil.RefuseUsageMistakes(cmd)
	return cmd
}

// runAdminOnTerminal runs `dealctl admin ARGS` as given, its stdout a
// terminal, and returns what it printed there.
func runAdminOnTerminal(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	cmd := NewCmd(ios)
	cmdutil.RefuseUsageMistakes(cmd)
	cmd.SetOut(out)
	cmd.SetErr(io.Discard)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

// runAdmin runs `dealctl admin ARGS --db DB` and returns its stdout.
func runAdmin(t *testing.T, db, stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := testAdminCmd()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetArgs(append(args, "--db", db))
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

// exitOf is the exit code dealctl gives for err.
func exitOf(err error) int { return cmdutil.ExitCode(err) }

func seededDB(t *testing.T) (string, world.Result) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "dealctl.db")
	out, err := runAdmin(t, db, "", "apply", "-f", exampleWorld, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var res world.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("apply -o json printed %q: %v", out, err)
	}
	return db, res
}

func openTestDB(t *testing.T, path string) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestAdminApplyIsIdempotent(t *testing.T) {
	t.Parallel()
	db, first := seededDB(t)
	if first.Deals["falcon"] == "" || first.Keys["alice-write"].Secret == "" || first.People["falcon/alice"] == "" {
		t.Fatalf("apply -o json = %+v", first)
	}
	out, err := runAdmin(t, db, "", "apply", "-f", exampleWorld)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, first.Requests["falcon/1.1"]) || strings.Contains(out, first.Keys["alice-write"].Secret) {
		t.Errorf("second apply, text output:\n%s\nwant the same ids and no old secret", out)
	}
	rows, _ := openTestDB(t, db).Requests(context.Background(), first.Deals["falcon"])
	if len(rows) != 2 {
		t.Errorf("%d rows after two applies, want 2", len(rows))
	}
}

func TestAdminApplyStdinJSON(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "dealctl.db")
	doc := `{"organizations": [{"key": "o", "name": "O"}],
	 "users": [{"key": "u", "email": "u@o.example", "organization": "o"}],
	 "deals": [{"key": "d", "name": "Deal", "parties": [{"key": "s", "side": "sell", "owner": true}],
	   "people": [{"user": "u", "party": "s", "access": "admin"}],
	   "requests": [{"number": "1", "title": "One", "messages": [{"author": "u", "text": "x",
	     "files": [{"name": "a.txt", "content": "hello"}]}]}]}]}`
	out, err := runAdmin(t, db, doc, "apply", "-f", "-", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"d/1"`) {
		t.Errorf("apply from stdin printed %s", out)
	}
}

func TestAdminApplyErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("deals:\n  - key: d\n    name: D\n    parties: [{key: s, side: seller, owner: true}]\n"), 0o600)
	db := filepath.Join(dir, "dealctl.db")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"apply", "-f", bad}, cmdutil.ExitValidation, `deals[0].parties[0].side: "seller" is not one of buy, sell`},
		{[]string{"apply", "-f", filepath.Join(dir, "none.yaml")}, cmdutil.ExitNotFound, "does not exist"},
		{[]string{"apply"}, cmdutil.ExitUsage, "pass -f FILE"},
		{[]string{"apply", "-f", exampleWorld, "-o", "xml"}, cmdutil.ExitUsage, "text or json"},
	}
	for _, tc := range cases {
		_, err := runAdmin(t, db, "", tc.args...)
		if exitOf(err) != tc.code || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("admin %v: exit %d, %v; want exit %d mentioning %q", tc.args, exitOf(err), err, tc.code, tc.want)
		}
	}
}

func TestAdminKeys(t *testing.T) {
	t.Parallel()
	db, res := seededDB(t)
	out, err := runAdmin(t, db, "", "keys", "create", "--user", "BOB@acme.example", "--name", "export", "--access", "read", "--deal", "Falcon", "--expires-in", "30d", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var k adminKey
	if err := json.Unmarshal([]byte(out), &k); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(k.Secret, "dlk_") || k.UserID != res.Users["bob"] || len(k.DealIDs) != 1 || k.DealIDs[0] != res.Deals["falcon"] {
		t.Errorf("created key = %+v", k)
	}
	if got := k.ExpiresAt.Sub(k.CreatedAt).Hours(); got != 30*24 {
		t.Errorf("lifetime %vh, want 720h", got)
	}
	ls, err := runAdmin(t, db, "", "keys", "ls", "--user", "bob")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ls, k.Prefix) || strings.Contains(ls, k.Secret) || strings.Contains(ls, res.Keys["alice-write"].Prefix) {
		t.Errorf("keys ls --user bob:\n%s", ls)
	}
	// Not a terminal: tab-separated rows, no header.
	if strings.Contains(ls, "PREFIX") || !strings.Contains(ls, k.ID+"\t"+k.Prefix+"\t") {
		t.Errorf("keys ls piped is not headerless tab-separated:\n%s", ls)
	}
	// A terminal, as the command's streams know it: aligned, with a header.
	tty, err := runAdminOnTerminal(t, "keys", "ls", "--user", "bob", "--db", db)
	if err != nil || !strings.Contains(tty, "PREFIX") || !strings.Contains(tty, k.Prefix) {
		t.Errorf("keys ls on a terminal: %v; want a header and %s:\n%s", err, k.Prefix, tty)
	}
	if _, err := runAdmin(t, db, "", "keys", "revoke", k.Prefix); err != nil {
		t.Fatal(err)
	}
	stored, _ := openTestDB(t, db).APIKeyByPrefix(context.Background(), k.Prefix)
	if stored.RevokedAt == nil {
		t.Error("revoke left the key active")
	}
	// Scripts re-run: revoking a revoked key succeeds; an unknown one does not.
	if _, err := runAdmin(t, db, "", "keys", "revoke", k.Prefix); err != nil {
		t.Errorf("revoking twice: %v", err)
	}
	if _, err := runAdmin(t, db, "", "keys", "revoke", "dlk_nosuchkey"); exitOf(err) != cmdutil.ExitNotFound {
		t.Errorf("revoking an unknown key: exit %d, %v; want %d", exitOf(err), err, cmdutil.ExitNotFound)
	}
	for _, args := range [][]string{
		{"keys", "create", "--user", "carol@nowhere.example", "--name", "x", "--access", "read"},
		{"keys", "create", "--user", "bob", "--name", "x", "--access", "read", "--deal", "Hawk"},
	} {
		if _, err := runAdmin(t, db, "", args...); exitOf(err) != cmdutil.ExitNotFound {
			t.Errorf("admin %v: exit %d, %v; want %d", args, exitOf(err), err, cmdutil.ExitNotFound)
		}
	}
	if _, err := runAdmin(t, db, "", "keys", "create", "--user", "bob", "--name", "x", "--access", "admin"); exitOf(err) != cmdutil.ExitUsage {
		t.Errorf("--access admin: exit %d, want %d", exitOf(err), cmdutil.ExitUsage)
	}
}

func TestAdminDealsArchive(t *testing.T) {
	t.Parallel()
	db, res := seededDB(t)
	for _, tc := range []struct {
		args []string
		want bool
	}{{[]string{"deals", "archive", "Project Falcon"}, true}, {[]string{"deals", "unarchive", "falcon"}, false}} {
		if _, err := runAdmin(t, db, "", tc.args...); err != nil {
			t.Fatal(err)
		}
		d, _ := openTestDB(t, db).Deal(context.Background(), res.Deals["falcon"])
		if d.Archived != tc.want {
			t.Errorf("after %v: archived = %v", tc.args, d.Archived)
		}
	}
	if _, err := runAdmin(t, db, "", "deals", "archive", "Hawk"); exitOf(err) != cmdutil.ExitNotFound {
		t.Errorf("unknown deal: exit %d, want %d", exitOf(err), cmdutil.ExitNotFound)
	}
}

func TestAdminFilesAttach(t *testing.T) {
	t.Parallel()
	db, res := seededDB(t)
	file := filepath.Join(t.TempDir(), "minutes.txt")
	os.WriteFile(file, []byte("board minutes"), 0o600)
	if _, err := runAdmin(t, db, "", "files", "attach", "--deal", "Falcon", "--request", "1.1", file, "--unscanned"); err != nil {
		t.Fatal(err)
	}
	files, _ := openTestDB(t, db).Files(context.Background(), res.Deals["falcon"], res.Requests["falcon/1.1"])
	var found bool
	for _, f := range files {
		if *f.Name == "minutes.txt" {
			found = true
			if f.Downloadable() || *f.Size != int64(len("board minutes")) {
				t.Errorf("attached file = %+v", f)
			}
		}
	}
	if !found {
		t.Errorf("minutes.txt not listed on 1.1: %+v", files)
	}
	_, err := runAdmin(t, db, "", "files", "attach", "--deal", "Falcon", "--request", "1", file)
	if exitOf(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), "has no answer") {
		t.Errorf("attach to a request without messages: exit %d, %v", exitOf(err), err)
	}
	_, err = runAdmin(t, db, "", "files", "attach", "--deal", "Falcon", "--request", "1.1", "--name", "x", file, file)
	if exitOf(err) != cmdutil.ExitUsage {
		t.Errorf("--name with two files: exit %d, want %d", exitOf(err), cmdutil.ExitUsage)
	}
}

func TestAdminBackupAndMigrate(t *testing.T) {
	t.Parallel()
	db, res := seededDB(t)
	backup := filepath.Join(t.TempDir(), "copy.db")
	if _, err := runAdmin(t, db, "", "backup", backup); err != nil {
		t.Fatal(err)
	}
	if _, err := openTestDB(t, backup).Deal(context.Background(), res.Deals["falcon"]); err != nil {
		t.Errorf("the backup lacks the deal: %v", err)
	}
	if _, err := runAdmin(t, db, "", "backup", backup); exitOf(err) != cmdutil.ExitUsage {
		t.Errorf("backup over an existing file: exit %d, want %d", exitOf(err), cmdutil.ExitUsage)
	}
	out, err := runAdmin(t, db, "", "migrate", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Dialect string `json:"dialect"`
		Version int    `json:"schema_version"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Dialect != "sqlite" || v.Version < 1 {
		t.Errorf("migrate -o json = %s (%v)", out, err)
	}
}

// TestAdminDefaultDB: without --db or DEALCTL_DB, admin commands use the
// default database that serve created; they never create it themselves
// (TestAdminNeverCreatesADatabaseNoOneNamed).
func TestAdminDefaultDB(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("DEALCTL_DB", "")
	path := filepath.Join(os.Getenv("XDG_DATA_HOME"), "dealctl", "dealctl.db")
	openTestDB(t, path).Close() // as `dealctl serve` leaves it
	cmd := testAdminCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetArgs([]string{"migrate"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "already up to date") {
		t.Errorf("migrate on the default database printed %q", out.String())
	}
}

// TestAdminRefusesAnAmbiguousDealName: a name two deals share names
// neither (as in the client commands); an id, a world-file key or the
// codename that only one holds still names one.
func TestAdminRefusesAnAmbiguousDealName(t *testing.T) {
	t.Parallel()
	db, res := seededDB(t)
	second := filepath.Join(t.TempDir(), "second.yaml")
	os.WriteFile(second, []byte("organizations:\n  - {key: target, name: Target Co}\ndeals:\n  - key: falcon-two\n    name: Project Falcon\n    codename: Falcon II\n    timezone: UTC\n    parties:\n      - {key: sell, side: sell, label: Target Co, owner: true, organization: target}\n"), 0o600)
	if out, err := runAdmin(t, db, "", "apply", "-f", second); err != nil {
		t.Fatalf("apply a second deal: %v\n%s", err, out)
	}
	_, err := runAdmin(t, db, "", "deals", "archive", "project falcon")
	if exitOf(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "names 2 deals") || !strings.Contains(err.Error(), res.Deals["falcon"]) {
		t.Errorf("archive a shared name: exit %d, %v; want %d naming both deals' ids", exitOf(err), err, cmdutil.ExitUsage)
	}
	for _, ref := range []string{"Falcon", "falcon", res.Deals["falcon"]} {
		if _, err := runAdmin(t, db, "", "deals", "archive", ref); err != nil {
			t.Errorf("archive %q: %v", ref, err)
		}
	}
	if d, _ := openTestDB(t, db).Deal(context.Background(), res.Deals["falcon"]); !d.Archived {
		t.Errorf("deal falcon not archived by its codename, key and id")
	}
}

// TestAdminReadsDEALCTL_FILESAsItsFlag: the variable stands in for
// --files, read when the command runs (no longer when the tree is built),
// and a bad value is a usage error naming the variable.
func TestAdminReadsDEALCTL_FILESAsItsFlag(t *testing.T) {
	db, _ := seededDB(t)
	t.Setenv("DEALCTL_FILES", "ftp://nowhere")
	_, err := runAdmin(t, db, "", "files", "migrate", "--to", "db")
	if exitOf(err) != cmdutil.ExitUsage || !strings.HasPrefix(err.Error(), "DEALCTL_FILES: ") {
		t.Errorf("files migrate with DEALCTL_FILES=ftp://nowhere: exit %d, %v; want a usage error naming DEALCTL_FILES", exitOf(err), err)
	}
	_, err = runAdmin(t, db, "", "files", "migrate", "--to", "db", "--files", "ftp://typed")
	if exitOf(err) != cmdutil.ExitUsage || !strings.HasPrefix(err.Error(), "--files: ") {
		t.Errorf("files migrate --files ftp://typed: exit %d, %v; want a usage error naming --files", exitOf(err), err)
	}
}
