package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dealctl/dealctl/internal/iostreams"
)

// TestMCPCommand runs `dealctl mcp --allow-writes` in-process on pipes,
// as an MCP client starts it, with the user's settings (server, key and
// deal from the environment), and drives it with the SDK's client: the
// tools act with alice's key on Falcon, a write previews and confirms
// with the token key kept in the cache folder, and the command ends
// cleanly, saying nothing on stderr, when the client goes.
func TestMCPCommand(t *testing.T) {
	ts := newFalcon(t)
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "config"),
		"XDG_CACHE_HOME": filepath.Join(home, "cache"), "DEALCTL_KEYRING": "file", "DEALCTL_API_KEY": testKey,
		"DEALCTL_DEAL": "falcon", "DEALCTL_SERVER": ts.URL}
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	ios, _, _, errOut := iostreams.Test()
	ios.In, ios.Out = toServer, fromServer
	f := testFactory(t, ios, env)
	done := make(chan int, 1)
	go func() {
		done <- Run(context.Background(), f, []string{"mcp", "--allow-writes"})
		fromServer.Close()
	}()

	ctx := t.Context()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", tool, err, res)
		}
		var out map[string]any
		data, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(data, &out)
		return out
	}
	me := call("whoami", nil)
	if me["default_deal"] != "falcon" || me["writes_enabled"] != true || me["user"].(map[string]any)["email"] != "alice@target.example" {
		t.Errorf("whoami = %v", me)
	}
	if list := call("list_requests", map[string]any{"status": []string{"partial"}}); len(list["requests"].([]any)) != 1 {
		t.Errorf("list_requests = %v", list)
	}
	preview := call("move_status", map[string]any{"request": "1.1", "status": "partial"})
	if preview["status"] != "needs_confirmation" {
		t.Fatalf("preview = %v", preview)
	}
	moved := call("move_status", map[string]any{"request": "1.1", "status": "partial", "confirmation_token": preview["confirmation_token"]})
	if moved["status"] != "written" {
		t.Errorf("confirmed = %v", moved)
	}
	if _, err := os.Stat(filepath.Join(home, "cache", "dealctl", "mcp", "confirm.key")); err != nil {
		t.Errorf("the token key is not kept in the cache folder: %v", err)
	}

	cs.Close()
	if code := <-done; code != 0 {
		t.Errorf("dealctl mcp exited %d: %s", code, errOut)
	}
	if strings.TrimSpace(errOut.String()) != "" {
		t.Errorf("stderr: %s", errOut)
	}
}
