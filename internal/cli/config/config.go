// Package config resolves dealctl's client settings — from flags, DEALCTL_*
// environment variables and the XDG config file, in that order — and
// stores API keys (keys.go).
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Setting names, shared by flags, environment (DEALCTL_ + upper case) and
// the config file.
const (
	KeyServer   = "server"
	KeyDeal     = "deal"
	KeyRateWait = "rate_wait" // longest total wait on 429s within one call
	KeyNoCache  = "no_cache"  // disables the on-disk ETag cache
	// KeyNoExtensions makes the client ignore the server's extensions
	// (list filters, If-Match, Idempotency-Key) and use the plain API.
	KeyNoExtensions = "no_extensions"
)

// defaultDealsKey holds the deal `deals use` chose, per server: a deal id
// means nothing on another server.
const defaultDealsKey = "default_deals"

// Config is the resolved client configuration.
type Config struct {
	v    *viper.Viper
	dir  string
	file string
}

// Dir is dealctl's config directory: $XDG_CONFIG_HOME/dealctl or the OS
// equivalent.
func Dir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "dealctl"), nil
}

// Env looks up an environment variable: os.LookupEnv in a real process.
// Tests give each command an environment of its own, so that commands can
// run side by side in one test process.
type Env func(name string) (string, bool)

// envName is the environment variable of setting key.
func envName(key string) string {
	return "DEALCTL_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}

// Load reads the config file in dir (missing is fine), then the DEALCTL_*
// variables of env, then the flags in fs that carry a setting's name; a
// later source wins over an earlier one. An empty variable counts as
// unset.
func Load(dir string, env Env, flags *pflag.FlagSet) (*Config, error) {
	// "::" as the key delimiter: server URLs, used as map keys, hold dots.
	v := viper.NewWithOptions(viper.KeyDelimiter("::"))
	changed := func(k string) bool { return false }
	if flags != nil {
		for _, k := range []string{KeyServer, KeyDeal} {
			if f := flags.Lookup(k); f != nil {
				if err := v.BindPFlag(k, f); err != nil {
					return nil, err
				}
			}
		}
		changed = func(k string) bool { f := flags.Lookup(k); return f != nil && f.Changed }
	}
	// The environment is read here rather than bound with viper.BindEnv,
	// which reads the process's own: a value set here overrides the file,
	// and is left out where a flag was given.
	for _, k := range []string{KeyServer, KeyDeal, KeyRateWait, KeyNoCache, KeyNoExtensions} {
		if val, ok := env(envName(k)); ok && val != "" && !changed(k) {
			v.Set(k, val)
		}
	}
	file := filepath.Join(dir, "config.yaml")
	v.SetConfigFile(file)
	if err := v.ReadInConfig(); err != nil && !errors.Is(err, fs.ErrNotExist) {
		var nf viper.ConfigFileNotFoundError
		if !errors.As(err, &nf) {
			return nil, err
		}
	}
	c := &Config{v: v, dir: dir, file: file}
	if err := c.check(); err != nil {
		return nil, err
	}
	return c, nil
}

func isInt(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// ErrBadSetting marks a setting whose value cannot be read.
var ErrBadSetting = errors.New("bad setting")

// check refuses a setting the client cannot read rather than taking it as
// its zero value: DEALCTL_NO_CACHE=yes would otherwise leave the cache on,
// and DEALCTL_RATE_WAIT=2 minutes would wait the default.
func (c *Config) check() error {
	bad := func(key, val, want string) error {
		return fmt.Errorf("%w: %s is %q, %s: fix %s or %s in %s", ErrBadSetting, key, val, want, envName(key), key, c.file)
	}
	if val := c.v.GetString(KeyRateWait); val != "" {
		// A bare number is nanoseconds, as viper reads it: -1 waits never.
		if _, err := time.ParseDuration(val); err != nil && !isInt(val) {
			return bad(KeyRateWait, val, "not a duration like 30s or 2m")
		}
	}
	for _, key := range []string{KeyNoCache, KeyNoExtensions} {
		if val := c.v.GetString(key); val != "" {
			if _, err := strconv.ParseBool(val); err != nil {
				return bad(key, val, "not true or false (1 or 0)")
			}
		}
	}
	return nil
}

// File is the config file's path.
func (c *Config) File() string { return c.file }

// Dir is the config directory (the key file lives there too).
func (c *Config) Dir() string { return c.dir }

// Server is the server address chosen, or "".
func (c *Config) Server() string { return strings.TrimSuffix(c.v.GetString(KeyServer), "/") }

// Deal is the deal chosen by flag or environment, else the one `deals use`
// remembered for server, or "".
func (c *Config) Deal(server string) string {
	if d := c.v.GetString(KeyDeal); d != "" {
		return d
	}
	m := c.v.GetStringMapString(defaultDealsKey)
	return m[strings.ToLower(server)]
}

// RateWait bounds the total 429 wait within one call (0: the client's
// default).
func (c *Config) RateWait() time.Duration { return c.v.GetDuration(KeyRateWait) }

// NoCache reports whether the ETag cache is turned off.
func (c *Config) NoCache() bool { return c.v.GetBool(KeyNoCache) }

// NoExtensions reports whether the server's extensions are to be ignored.
func (c *Config) NoExtensions() bool { return c.v.GetBool(KeyNoExtensions) }

// SetServer remembers server as the default.
func (c *Config) SetServer(server string) error {
	return c.update(func(f *viper.Viper) { f.Set(KeyServer, server) })
}

// SetDefaultDeal remembers dealID as the default deal on server.
func (c *Config) SetDefaultDeal(server, dealID string) error {
	return c.update(func(f *viper.Viper) {
		m := f.GetStringMapString(defaultDealsKey)
		if m == nil {
			m = map[string]string{}
		}
		m[strings.ToLower(server)] = dealID
		f.Set(defaultDealsKey, m)
	})
}

// update rewrites the config file from the file alone: writing c.v would
// persist whatever the environment and flags said for this one run.
func (c *Config) update(change func(*viper.Viper)) error {
	f := viper.NewWithOptions(viper.KeyDelimiter("::"))
	f.SetConfigFile(c.file)
	if err := f.ReadInConfig(); err != nil && !errors.Is(err, fs.ErrNotExist) {
		var nf viper.ConfigFileNotFoundError
		if !errors.As(err, &nf) {
			return err
		}
	}
	change(f)
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return err
	}
	if err := f.WriteConfigAs(c.file); err != nil {
		return err
	}
	// Re-read so this run sees the change under any flag or environment.
	return c.v.ReadInConfig()
}
