// Package config resolves dealctl's client settings — from flags, DEALCTL_*
// environment variables and the XDG config file, in that order — and
// stores API keys (keys.go).
package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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

// Load reads the config file (missing is fine), the environment and the
// flags in fs that carry a setting's name.
func Load(flags *pflag.FlagSet) (*Config, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	// "::" as the key delimiter: server URLs, used as map keys, hold dots.
	v := viper.NewWithOptions(viper.KeyDelimiter("::"))
	v.SetEnvPrefix("DEALCTL")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	for _, k := range []string{KeyServer, KeyDeal, KeyRateWait, KeyNoCache, KeyNoExtensions} {
		if err := v.BindEnv(k); err != nil {
			return nil, err
		}
	}
	if flags != nil {
		for _, k := range []string{KeyServer, KeyDeal} {
			if f := flags.Lookup(k); f != nil {
				if err := v.BindPFlag(k, f); err != nil {
					return nil, err
				}
			}
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
	return &Config{v: v, dir: dir, file: file}, nil
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
