// Package settings gives `serve` and `admin` their environment variables
// (DEALCTL_ADDR, DEALCTL_RATE_LIMIT, DEALCTL_FILES, …) the way the client
// commands treat theirs: each stands in for a flag that was not typed, is
// parsed as the flag parses its value, and a value the flag would refuse
// is a usage error naming the variable (exit 2) rather than a silent
// default. The flags' structs (serve's serveOptions, admin's
// adminOptions) are the one place the settings live, validated after
// this fills them, as soft-serve's pkg/config is.
package settings

import (
	"os"

	"github.com/spf13/pflag"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// Env looks a variable up: os.LookupEnv, or a test's own.
type Env func(name string) (string, bool)

// System is the process's environment.
var System Env = os.LookupEnv

// Var is one setting: a flag, the variable that gives it when the flag is
// not typed, and other flags that set the same value (--smtp-url for
// --notify-url), any of which typed makes the variable unread.
type Var struct {
	Flag, Env string
	Also      []string
}

// Origins tells, for a flag, the name to quote in a message about its
// value: "--rate-limit" when typed, "DEALCTL_RATE_LIMIT" when it came from
// there.
type Origins map[string]string

// Of is where flag's value came from.
func (o Origins) Of(flag string) string {
	if v, ok := o[flag]; ok {
		return v
	}
	return "--" + flag
}

// Apply sets each of vars' flags that no one typed from its variable, if
// set and not empty.
func Apply(flags *pflag.FlagSet, env Env, vars []Var) (Origins, error) {
	origins := Origins{}
	for _, v := range vars {
		if typed(flags, v) {
			continue
		}
		value, ok := env(v.Env)
		if !ok || value == "" {
			continue
		}
		if err := flags.Set(v.Flag, value); err != nil {
			return nil, cmdutil.UsageErrorf("%s=%q is not a value --%s takes (%v): fix or unset %s", v.Env, value, v.Flag, unwrapFlagError(err), v.Env)
		}
		origins[v.Flag] = v.Env
	}
	return origins, nil
}

func typed(flags *pflag.FlagSet, v Var) bool {
	if flags.Changed(v.Flag) {
		return true
	}
	for _, f := range v.Also {
		if flags.Changed(f) {
			return true
		}
	}
	return false
}

// unwrapFlagError is pflag's reason without its own quoting of the flag
// and value, which the message above says once.
func unwrapFlagError(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok || u.Unwrap() == nil {
			return err
		}
		err = u.Unwrap()
	}
}
