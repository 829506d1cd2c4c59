package config

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestPrecedenceAndDefaultDeal(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DEALCTL_SERVER", "")
	t.Setenv("DEALCTL_DEAL", "")
	c, err := Load(dir, os.LookupEnv, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetServer("http://file.example"); err != nil {
		t.Fatal(err)
	}
	if err := c.SetDefaultDeal("http://file.example", "deal-1"); err != nil {
		t.Fatal(err)
	}

	c, _ = Load(dir, os.LookupEnv, nil)
	if c.Server() != "http://file.example" || c.Deal(c.Server()) != "deal-1" {
		t.Errorf("from file: server %q deal %q", c.Server(), c.Deal(c.Server()))
	}
	if c.Deal("http://other.example") != "" {
		t.Error("a default deal leaked to another server")
	}

	t.Setenv("DEALCTL_SERVER", "http://env.example")
	c, _ = Load(dir, os.LookupEnv, nil)
	if c.Server() != "http://env.example" {
		t.Errorf("env should beat file: %q", c.Server())
	}

	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("server", "", "")
	fs.String("deal", "", "")
	if err := fs.Parse([]string{"--server", "http://flag.example", "--deal", "falcon"}); err != nil {
		t.Fatal(err)
	}
	c, _ = Load(dir, os.LookupEnv, fs)
	if c.Server() != "http://flag.example" || c.Deal(c.Server()) != "falcon" {
		t.Errorf("flags should beat env: %q %q", c.Server(), c.Deal(c.Server()))
	}
}

// TestUnreadableSettingsAreRefused: a value the client cannot read is an
// error that names the setting and where to fix it, not its zero value.
func TestUnreadableSettingsAreRefused(t *testing.T) {
	dir := t.TempDir()
	for env, want := range map[string]string{
		"DEALCTL_RATE_WAIT=banana":  `rate_wait is "banana", not a duration like 30s or 2m: fix DEALCTL_RATE_WAIT or rate_wait in `,
		"DEALCTL_NO_CACHE=yes":      `no_cache is "yes", not true or false (1 or 0): fix DEALCTL_NO_CACHE`,
		"DEALCTL_NO_EXTENSIONS=off": `no_extensions is "off"`,
	} {
		name, val, _ := strings.Cut(env, "=")
		lookup := func(k string) (string, bool) {
			if k == name {
				return val, true
			}
			return "", false
		}
		_, err := Load(dir, lookup, nil)
		if !errors.Is(err, ErrBadSetting) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want ErrBadSetting saying %q", env, err, want)
		}
	}
	for _, env := range []string{"DEALCTL_RATE_WAIT=90s", "DEALCTL_RATE_WAIT=-1", "DEALCTL_NO_CACHE=1", "DEALCTL_NO_EXTENSIONS=false"} {
		name, val, _ := strings.Cut(env, "=")
		c, err := Load(dir, func(k string) (string, bool) { return val, k == name }, nil)
		if err != nil {
			t.Errorf("%s: %v", env, err)
			continue
		}
		if env == "DEALCTL_NO_CACHE=1" && !c.NoCache() {
			t.Errorf("%s: NoCache() = false", env)
		}
	}
}
