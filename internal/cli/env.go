package cli

import (
	"context"
	"time"

	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/iostreams"
)

// cmdEnv is what most commands copy from the Factory into their Options:
// streams, a lazily built client, the chosen deal, the printer and the
// clock. Tests fill it by hand with a stub server's client.
type cmdEnv struct {
	IO         *iostreams.IOStreams
	Client     func() (*client.Client, error)
	DealRef    func() (string, error)
	Printer    func() *output.Printer
	Now        func() time.Time
	RetrySleep func(ctx context.Context, d time.Duration) error // between a call's attempts
	Infof      func(format string, a ...any)
	Warnf      func(format string, a ...any)
	Quiet      func() bool // -q: print only data
}

func (f *Factory) env() cmdEnv {
	return cmdEnv{
		IO:         f.IO,
		Client:     f.Client,
		DealRef:    f.dealRef,
		Printer:    f.Printer,
		Now:        f.Now,
		RetrySleep: f.RetrySleep,
		Infof:      f.Infof,
		Warnf:      f.Warnf,
		Quiet:      func() bool { return f.Global.Quiet },
	}
}

// dealRef is the deal named by --deal, DEALCTL_DEAL, or `deals use`.
func (f *Factory) dealRef() (string, error) {
	cfg, err := f.Config()
	if err != nil {
		return "", err
	}
	server, err := f.Server()
	if err != nil {
		return "", err
	}
	d := cfg.Deal(server)
	if d == "" {
		return "", cmdutil.UsageErrorf("no deal chosen: pass --deal NAME, set DEALCTL_DEAL, or run 'dealctl deals use NAME'")
	}
	return d, nil
}
