package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/config"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/iostreams"
)

// NewCmdAuth is `dealctl auth`.
func NewCmdAuth(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auth",
		Short: "Log in to a server, see who you are, log out",
	}
	cmd.AddCommand(NewCmdAuthLogin(f), NewCmdAuthStatus(f), NewCmdAuthLogout(f))
	return cmd
}

// authEnv is what the auth commands need beyond cmdEnv: the server, the
// key store and a way to check a key that is not stored yet.
type authEnv struct {
	IO       *iostreams.IOStreams
	Server   func() (string, error)
	Keys     func() (*config.KeyStore, error)
	ClientOf func(server, key string) (*client.Client, error)
	Printer  func() *output.Printer
	Infof    func(format string, a ...any)
	Warnf    func(format string, a ...any)
}

func (f *Factory) authEnv() authEnv {
	return authEnv{
		IO: f.IO, Server: f.Server, Keys: f.Keys, ClientOf: f.clientFor,
		Printer: f.Printer, Infof: f.Infof, Warnf: f.Warnf,
	}
}

// LoginOptions are `auth login`'s inputs.
type LoginOptions struct {
	authEnv
	SaveServer func(server string) error
	WithKey    bool // read the key from stdin even on a terminal
}

// NewCmdAuthLogin is `dealctl auth login`.
func NewCmdAuthLogin(f *Factory) *cobra.Command {
	opts := &LoginOptions{authEnv: f.authEnv()}
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Store an API key for a server, after checking it",
		Long: `Reads an API key from a hidden prompt on a terminal, or from stdin when
piped (echo "$KEY" | dealctl auth login --server URL), checks it with
GET /me and stores it: in the OS keyring, or in a 0600 file when there
is none (or DEALCTL_KEYRING=file). The server becomes the default.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.SaveServer = func(s string) error {
				cfg, err := f.Config()
				if err != nil {
					return err
				}
				return cfg.SetServer(s)
			}
			return loginRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.WithKey, "with-key", false, "read the key from stdin")
	return cmd
}

func loginRun(ctx context.Context, o *LoginOptions) error {
	server, err := o.Server()
	if err != nil {
		return err
	}
	var key string
	if o.IO.CanPrompt() && !o.WithKey {
		fmt.Fprintf(o.IO.ErrOut, "Paste an API key for %s: ", server)
		key, err = o.IO.ReadPassword()
		fmt.Fprintln(o.IO.ErrOut)
	} else {
		key, err = readKey(o.IO.In)
	}
	if err != nil {
		return fmt.Errorf("reading the key: %w", err)
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return cmdutil.UsageErrorf("no key given: paste it at the prompt, or pipe it: echo \"$KEY\" | dealctl auth login")
	}
	c, err := o.ClientOf(server, key)
	if err != nil {
		return err
	}
	me, err := c.Me(ctx)
	if err != nil {
		return err
	}
	keys, err := o.Keys()
	if err != nil {
		return err
	}
	where, err := keys.Set(server, key)
	if err != nil {
		return fmt.Errorf("storing the key: %w", err)
	}
	if err := o.SaveServer(server); err != nil {
		return fmt.Errorf("saving the server in the config file: %w", err)
	}
	if keys.Getenv(config.SourceEnv) != "" {
		o.Warnf("DEALCTL_API_KEY is set and takes precedence over the stored key")
	}
	o.Infof("Logged in to %s as %s (key %s, %s); key stored in %s", server, userLabel(me.User), me.Key.Prefix, me.Key.Access, storeLabel(where, keys))
	return nil
}

// readKey reads the first line of r: a key piped in, with or without a
// trailing newline.
func readKey(r io.Reader) (string, error) {
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return line, nil
}

func storeLabel(where string, keys *config.KeyStore) string {
	switch where {
	case config.SourceKeyring:
		return "the OS keyring"
	case config.SourceFile:
		return keys.FilePath()
	}
	return "the DEALCTL_API_KEY environment variable"
}

func userLabel(u api.User) string {
	name, email := deref(u.Name), deref(u.Email)
	switch {
	case name != "" && email != "":
		return name + " <" + email + ">"
	case email != "":
		return email
	case name != "":
		return name
	}
	return u.ID
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// AuthStatusOptions are `auth status`'s inputs.
type AuthStatusOptions struct{ authEnv }

// authStatus is what `auth status -o json` prints.
type authStatus struct {
	Server string  `json:"server"`
	Source string  `json:"source"`
	Me     *api.Me `json:"me"`
}

// NewCmdAuthStatus is `dealctl auth status`.
func NewCmdAuthStatus(f *Factory) *cobra.Command {
	opts := &AuthStatusOptions{authEnv: f.authEnv()}
	return &cobra.Command{
		Use:   "status",
		Short: "Say who the key acts as, on which server, and where the key came from",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return authStatusRun(cmd.Context(), opts)
		},
	}
}

func authStatusRun(ctx context.Context, o *AuthStatusOptions) error {
	server, err := o.Server()
	if err != nil {
		return err
	}
	keys, err := o.Keys()
	if err != nil {
		return err
	}
	key, source, err := keys.Get(server)
	if err != nil {
		return cmdutil.WithExit(cmdutil.ExitAuth, fmt.Errorf("not logged in to %s: run 'dealctl auth login' or set DEALCTL_API_KEY", server))
	}
	c, err := o.ClientOf(server, key)
	if err != nil {
		return err
	}
	me, err := c.Me(ctx)
	if err != nil {
		return err
	}
	st := authStatus{Server: server, Source: source, Me: me}
	return o.Printer().Print(output.View{Data: st, Human: func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "Server:  %s\nUser:    %s\nOrg:     %s\nKey:     %s %s (%s, expires %s)\nStored:  %s\n",
			server, userLabel(me.User), me.Organization.Name, me.Key.Name, me.Key.Prefix, me.Key.Access,
			me.Key.ExpiresAt.Format("2006-01-02"), storeLabel(source, keys))
		return err
	}})
}

// LogoutOptions are `auth logout`'s inputs.
type LogoutOptions struct{ authEnv }

// NewCmdAuthLogout is `dealctl auth logout`.
func NewCmdAuthLogout(f *Factory) *cobra.Command {
	opts := &LogoutOptions{authEnv: f.authEnv()}
	return &cobra.Command{
		Use:   "logout",
		Short: "Forget the stored key for the server",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return logoutRun(opts)
		},
	}
}

func logoutRun(o *LogoutOptions) error {
	server, err := o.Server()
	if err != nil {
		return err
	}
	keys, err := o.Keys()
	if err != nil {
		return err
	}
	found, err := keys.Delete(server)
	if err != nil {
		return err
	}
	if keys.Getenv(config.SourceEnv) != "" {
		o.Warnf("DEALCTL_API_KEY is still set in the environment; unset it too")
	}
	if !found {
		o.Infof("No key was stored for %s", server)
		return nil
	}
	o.Infof("Logged out of %s", server)
	return nil
}
