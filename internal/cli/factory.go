package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"github.com/dealctl/dealctl/internal/cli/config"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/iostreams"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// Version is set at build time (-ldflags "-X
// github.com/dealctl/dealctl/internal/cli.Version=1.2.3"); otherwise the
// module version from the build info is used.
var Version = ""

// version reports the running version.
func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// GlobalOptions are the root's persistent flags.
type GlobalOptions struct {
	Server  string
	Deal    string
	Output  string
	JSON    bool
	JQ      string
	NoColor bool
	Quiet   bool
}

// Factory carries what commands need. Everything expensive (config files,
// the keyring, HTTP clients) is built on first use, so `dealctl --version`
// and `dealctl completion` pay for none of it.
type Factory struct {
	IO     *iostreams.IOStreams
	Global *GlobalOptions
	Now    func() time.Time
	// RetrySleep is the wait between a call's attempts (retries after a
	// lost connection or a 5xx, and 429 waits); tests of dropped
	// connections shorten it. Polling commands (watch, activity) have a
	// Sleep of their own, between polls.
	RetrySleep func(ctx context.Context, d time.Duration) error

	// Env is the environment the settings are read from (DEALCTL_*):
	// os.LookupEnv unless a test gives a command one of its own.
	Env config.Env
	// ConfigDir and CacheDir are the folders of settings and keys, and of
	// cached answers: the OS's (config.Dir, client.DefaultCacheDir) unless
	// a test gives others.
	ConfigDir func() (string, error)
	CacheDir  func() (string, error)

	// Config, Keys and Client are lazy; tests replace them.
	Config func() (*config.Config, error)
	Keys   func() (*config.KeyStore, error)
	Client func() (*client.Client, error)

	flags *pflag.FlagSet // the root's persistent flags, bound into Config
	// wrote is set once a client of this factory has made a write
	// (client.WithWriteObserver), which the printer tells a failing
	// --jq (output.Printer.Wrote).
	wrote *atomic.Bool
}

// NewFactory returns the factory for a real process.
func NewFactory(io *iostreams.IOStreams) *Factory {
	f := &Factory{IO: io, Global: &GlobalOptions{}, Now: time.Now, RetrySleep: client.Sleep,
		Env: os.LookupEnv, ConfigDir: config.Dir, CacheDir: client.DefaultCacheDir, wrote: &atomic.Bool{}}
	f.Config = sync.OnceValues(func() (*config.Config, error) {
		dir, err := f.ConfigDir()
		if err != nil {
			return nil, err
		}
		cfg, err := config.Load(dir, f.Env, f.flags)
		if errors.Is(err, config.ErrBadSetting) {
			err = cmdutil.WithExit(cmdutil.ExitUsage, err)
		}
		return cfg, err
	})
	f.Keys = sync.OnceValues(func() (*config.KeyStore, error) {
		cfg, err := f.Config()
		if err != nil {
			return nil, err
		}
		return config.NewKeyStore(cfg.Dir(), f.getenv, f.Warnf), nil
	})
	f.Client = sync.OnceValues(f.newClient)
	return f
}

// getenv is the value of name in f.Env, "" when unset.
func (f *Factory) getenv(name string) string {
	v, _ := f.Env(name)
	return v
}

// Server is the server address the configuration names.
func (f *Factory) Server() (string, error) {
	cfg, err := f.Config()
	if err != nil {
		return "", err
	}
	s := cfg.Server()
	if s == "" {
		return "", cmdutil.WithExit(cmdutil.ExitUsage, fmt.Errorf("no server chosen: pass --server URL, set DEALCTL_SERVER, or run 'dealctl auth login --server URL'"))
	}
	u, err := client.ParseBaseURL(s)
	if err != nil {
		return "", cmdutil.WithExit(cmdutil.ExitUsage, fmt.Errorf("%w: fix --server or DEALCTL_SERVER", err))
	}
	return u.String(), nil
}

func (f *Factory) newClient() (*client.Client, error) {
	server, err := f.Server()
	if err != nil {
		return nil, err
	}
	keys, err := f.Keys()
	if err != nil {
		return nil, err
	}
	key, _, err := keys.Get(server)
	if err != nil {
		return nil, cmdutil.WithExit(cmdutil.ExitAuth, fmt.Errorf("no API key for %s: set DEALCTL_API_KEY or run 'dealctl auth login'", server))
	}
	return f.clientFor(server, key)
}

// clientFor builds a client of server with key (auth login checks a key
// before storing it).
func (f *Factory) clientFor(server, key string) (*client.Client, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	// A key copied with more than itself (two lines of a file, a CR of a
	// Windows one) cannot go in a header: Go's HTTP client refuses it, and
	// the error read as a server that cannot be reached.
	key = strings.TrimSpace(key)
	if strings.IndexFunc(key, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return nil, cmdutil.WithExit(cmdutil.ExitAuth, fmt.Errorf("the API key for %s holds a space, line break or other control character: set DEALCTL_API_KEY, or run 'dealctl auth login', with the key alone", server))
	}
	o := client.Options{
		BaseURL:     server,
		Key:         key,
		UserAgent:   "dealctl/" + version(),
		MaxRateWait: cfg.RateWait(),
		Sleep:       f.RetrySleep,
		OutageWait:  f.noteOutageWait,
		// Extensions are used where the server advertises them, unless
		// DEALCTL_NO_EXTENSIONS (or no_extensions in the config file).
		NoExtensions: cfg.NoExtensions(),
	}
	if slices.Contains(strings.Split(f.getenv("DEALCTL_DEBUG"), ","), "api") {
		o.Debug = f.IO.ErrOut
	}
	if !cfg.NoCache() {
		if dir, err := f.CacheDir(); err == nil {
			o.Cache = client.NewCache(dir)
		}
	}
	c, err := client.New(o)
	if err != nil || f.wrote == nil {
		return c, err
	}
	return c.WithWriteObserver(func(string, string) { f.wrote.Store(true) }), nil
}

// Printer returns the printer the global flags ask for.
func (f *Factory) Printer() *output.Printer {
	p := f.plainPrinter()
	p.Theme = f.Theme()
	return p
}

// plainPrinter is Printer without the theme: enough to check the flags.
func (f *Factory) plainPrinter() *output.Printer {
	g := f.Global
	format := g.Output
	if g.JSON || (g.JQ != "" && format == "") {
		format = output.FormatJSON
	}
	p := &output.Printer{IO: f.IO, Format: format, JQ: g.JQ}
	if f.wrote != nil {
		p.Wrote = f.wrote.Load
	}
	return p
}

// Theme colours terminal output unless colour is off.
func (f *Factory) Theme() *display.Theme {
	return display.NewTheme(f.IO.Out, f.IO.ColorEnabled())
}

// Warnf prints a warning to stderr, unless -q.
func (f *Factory) Warnf(format string, a ...any) {
	if f.Global.Quiet {
		return
	}
	fmt.Fprint(f.IO.ErrOut, termsafe.Text(fmt.Sprintf("warning: "+format+"\n", a...)))
}

// Infof prints a confirmation to stderr, unless -q or the output is for a
// program. Confirmations go to stderr so stdout stays the data.
func (f *Factory) Infof(format string, a ...any) {
	if f.Global.Quiet {
		return
	}
	fmt.Fprint(f.IO.ErrOut, termsafe.Text(fmt.Sprintf(format+"\n", a...)))
}
