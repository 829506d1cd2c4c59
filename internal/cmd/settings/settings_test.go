package settings

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

func flagsFor(t *testing.T, typed ...string) (*pflag.FlagSet, *int, *string) {
	t.Helper()
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	rate := fs.Int("rate-limit", 600, "")
	notify := fs.String("notify-url", "", "")
	fs.StringVar(notify, "smtp-url", "", "")
	if err := fs.Parse(typed); err != nil {
		t.Fatal(err)
	}
	return fs, rate, notify
}

func envOf(vars map[string]string) Env {
	return func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
}

var vars = []Var{{Flag: "rate-limit", Env: "DEALCTL_RATE_LIMIT"}, {Flag: "notify-url", Env: "DEALCTL_NOTIFY_URL", Also: []string{"smtp-url"}}}

// TestAValueTheFlagRefusesIsAUsageError: DEALCTL_RATE_LIMIT=banana used
// to become 600 without a word; it is exit 2 naming the variable, as the
// client's DEALCTL_RATE_WAIT=banana is.
func TestAValueTheFlagRefusesIsAUsageError(t *testing.T) {
	fs, _, _ := flagsFor(t)
	_, err := Apply(fs, envOf(map[string]string{"DEALCTL_RATE_LIMIT": "banana"}), vars)
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), `DEALCTL_RATE_LIMIT="banana"`) || !strings.Contains(err.Error(), "--rate-limit") {
		t.Errorf("DEALCTL_RATE_LIMIT=banana: %v (exit %d), want a usage error naming the variable and the flag", err, cmdutil.ExitCode(err))
	}
}

func TestTypedFlagsWinOverTheEnvironment(t *testing.T) {
	env := envOf(map[string]string{"DEALCTL_RATE_LIMIT": "60", "DEALCTL_NOTIFY_URL": "log"})
	fs, rate, notify := flagsFor(t, "--rate-limit", "7", "--smtp-url", "smtp://mail:25")
	origins, err := Apply(fs, env, vars)
	if err != nil || *rate != 7 || *notify != "smtp://mail:25" || origins.Of("rate-limit") != "--rate-limit" {
		t.Errorf("typed flags: rate %d, notify %q, origin %q, err %v; want the typed values", *rate, *notify, origins.Of("rate-limit"), err)
	}
	fs, rate, notify = flagsFor(t)
	origins, err = Apply(fs, env, vars)
	if err != nil || *rate != 60 || *notify != "log" || origins.Of("rate-limit") != "DEALCTL_RATE_LIMIT" {
		t.Errorf("from the environment: rate %d, notify %q, origin %q, err %v", *rate, *notify, origins.Of("rate-limit"), err)
	}
	fs, rate, _ = flagsFor(t)
	if _, err := Apply(fs, envOf(map[string]string{"DEALCTL_RATE_LIMIT": ""}), vars); err != nil || *rate != 600 {
		t.Errorf("an empty variable: rate %d, err %v; want the default", *rate, err)
	}
}
