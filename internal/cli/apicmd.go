package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// APIOptions are `api`'s inputs.
type APIOptions struct {
	cmdEnv
	Method string
	Path   string
	Fields []string // key=value, raw strings
	Typed  []string // key=value, value read as JSON when it parses
	Input  string   // a file holding the body, - for stdin
}

// apiMethods are the methods `api` sends: a typo is caught here rather
// than sent, so it is a usage error and not the server's 405.
var apiMethods = []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete, http.MethodHead}

// NewCmdAPI is `dealctl api METHOD PATH`.
func NewCmdAPI(f *Factory) *cobra.Command {
	opts := &APIOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:   "api METHOD PATH",
		Short: "Call any API path and print the answer's body",
		Long: `Sends METHOD (GET, POST, PATCH, PUT, DELETE or HEAD) to PATH, relative to
/api/v1 (/me) or a full path starting with /api/, with the stored key, and
prints the body. -f key=value adds a
string field, -F key=value a typed one (true, 3, null, [..], {..}); for a
GET they become query parameters, otherwise a JSON object body. --input
FILE (or -) sends a body as it is. {deal} in PATH is the chosen deal's id.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Method, opts.Path = strings.ToUpper(args[0]), args[1]
			if !slices.Contains(apiMethods, opts.Method) {
				return cmdutil.UsageErrorf("%q is not an HTTP method: use %s (nothing was sent)", args[0], strings.Join(apiMethods, ", "))
			}
			if opts.Input != "" && (len(opts.Fields) > 0 || len(opts.Typed) > 0) {
				return cmdutil.UsageErrorf("--input and -f/-F cannot be combined")
			}
			return apiRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringArrayVarP(&opts.Fields, "field", "f", nil, "add a string field key=value")
	cmd.Flags().StringArrayVarP(&opts.Typed, "typed-field", "F", nil, "add a typed field key=value (JSON value)")
	cmd.Flags().StringVar(&opts.Input, "input", "", "read the body from FILE (- for stdin)")
	return cmd
}

func apiRun(ctx context.Context, o *APIOptions) error {
	fields := map[string]any{}
	order := []string{}
	for _, kv := range o.Fields {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return cmdutil.UsageErrorf("-f %q: want key=value", kv)
		}
		fields[k] = v
		order = append(order, k)
	}
	for _, kv := range o.Typed {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return cmdutil.UsageErrorf("-F %q: want key=value", kv)
		}
		var typed any
		if err := json.Unmarshal([]byte(v), &typed); err != nil {
			typed = v
		}
		fields[k] = typed
		order = append(order, k)
	}
	path := o.Path
	if strings.Contains(path, "{deal}") {
		s, err := o.openDeal(ctx)
		if err != nil {
			return err
		}
		path = strings.ReplaceAll(path, "{deal}", s.Deal.ID)
	}
	var body []byte
	switch {
	case o.Input == "-":
		b, err := io.ReadAll(o.IO.In)
		if err != nil {
			return err
		}
		body = b
	case o.Input != "":
		b, err := os.ReadFile(o.Input)
		if err != nil {
			return cmdutil.WithExit(cmdutil.ExitUsage, fmt.Errorf("--input: %w", err))
		}
		body = b
	case len(fields) > 0 && (o.Method == http.MethodGet || o.Method == http.MethodHead):
		q := url.Values{}
		for _, k := range order {
			q.Add(k, fmt.Sprint(fields[k]))
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		path += sep + q.Encode()
	case len(fields) > 0:
		b, err := json.Marshal(fields)
		if err != nil {
			return err
		}
		body = b
	}
	c, err := o.Client()
	if err != nil {
		return err
	}
	// Any method to any path; reads go through the ETag cache like any other.
	resp, err := c.Do(ctx, o.Method, path, body, nil)
	if err != nil {
		return err
	}
	if len(resp.Body) == 0 {
		return nil
	}
	if !json.Valid(resp.Body) {
		// Not JSON (a proxy's error page, say): shown as it came, made
		// safe on a terminal.
		out := string(resp.Body)
		if o.IO.IsStdoutTTY() {
			out = termsafe.Text(out)
		}
		_, err := io.WriteString(o.IO.Out, out)
		return err
	}
	p := o.Printer()
	if p.JQ != "" || p.Format == output.FormatYAML {
		var v any
		if err := json.Unmarshal(resp.Body, &v); err != nil {
			return err
		}
		return p.Print(output.View{Data: v})
	}
	// Laid out as every other -o json path lays JSON out: two-space
	// indent, and < and & as themselves rather than \u003c and \u0026.
	return output.WriteRawJSON(o.IO.Out, resp.Body)
}
