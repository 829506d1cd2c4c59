package config

import (
	"os"
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
