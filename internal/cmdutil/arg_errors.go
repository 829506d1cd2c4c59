package cmdutil

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Usage mistakes are errors of their own (exit 2) from the moment cobra
// finds them, rather than cobra's sentences recognised afterwards, and they
// say what the command takes and the likely fix, in dealctl's words rather
// than cobra's ("accepts 1 arg(s), received 3").

// RefuseUsageMistakes makes every usage mistake cobra can find in the tree
// under root a usage error: a flag it cannot parse (unknown, without its
// value, of the wrong type), a wrong number of arguments, a required flag
// not given, a flag group broken. The client commands' root calls it once the tree is whole,
// serve and admin included; admin's tests call it on admin alone.
func RefuseUsageMistakes(root *cobra.Command) {
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return UsageErrorf("%v (see '%s --help')", err, c.CommandPath())
	})
	explainArgErrors(root)
	checkRequiredFlags(root)
}

// checkRequiredFlags checks, before cobra's own checks (which come after
// the PreRun hooks, as plain errors), that every flag marked required was
// given and every flag group holds (checkFlagGroups).
func checkRequiredFlags(cmd *cobra.Command) {
	for _, sub := range cmd.Commands() {
		checkRequiredFlags(sub)
	}
	preE, pre := cmd.PreRunE, cmd.PreRun
	cmd.PreRun = nil
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		var missing []string
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if req := f.Annotations[cobra.BashCompOneRequiredFlag]; len(req) > 0 && req[0] == "true" && !f.Changed {
				missing = append(missing, f.Name)
			}
		})
		if len(missing) > 0 {
			return UsageErrorf("required flag(s) \"%s\" not set (see '%s --help')", strings.Join(missing, `", "`), c.CommandPath())
		}
		if err := checkFlagGroups(c); err != nil {
			return err
		}
		switch {
		case preE != nil:
			return preE(c, args)
		case pre != nil:
			pre(c, args)
		}
		return nil
	}
}

// ArgsHintAnnotation is a command's note on its arguments, added to an
// argument-count mistake: "STATUS is open, partial or complete".
const ArgsHintAnnotation = "dealctl/args-hint"

// explainArgErrors wraps the argument check of every command in the tree
// so that a wrong number of arguments is a usage error (exit 2) naming
// the usage line, what was given and, where a flag's value looks cut at
// a space, the quoting that fixes it.
func explainArgErrors(cmd *cobra.Command) {
	for _, sub := range cmd.Commands() {
		explainArgErrors(sub)
	}
	check := cmd.Args
	if check == nil {
		return
	}
	cmd.Args = func(c *cobra.Command, args []string) error {
		if err := check(c, args); err != nil {
			return UsageErrorf("%s", argCountMessage(c, args))
		}
		return nil
	}
}

// optionalParts are the bracketed and braced parts of a usage line: what
// is left are the arguments a command needs.
var optionalParts = regexp.MustCompile(`\[[^\]]*\]|\{[^}]*\}`)

// argCountMessage explains a wrong number of arguments.
func argCountMessage(c *cobra.Command, args []string) string {
	var b strings.Builder
	usage := strings.TrimSpace(strings.TrimPrefix(c.Use, c.Name()))
	// "dealctl: answer takes …": the prefix names the program already.
	path := strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
	wanted := strings.Fields(optionalParts.ReplaceAllString(usage, ""))
	switch {
	case len(args) == 0:
		fmt.Fprintf(&b, "%s needs %s", path, strings.Join(wanted, " "))
	case len(wanted) == 0:
		fmt.Fprintf(&b, "%s takes no arguments, got %s", path, quoteArgs(args))
	default:
		fmt.Fprintf(&b, "%s takes %s, got %s", path, usage, quoteArgs(args))
	}
	if fix := quotingFix(c, args, len(wanted)); fix != "" {
		b.WriteString(": " + fix)
	} else if hint := c.Annotations[ArgsHintAnnotation]; hint != "" {
		b.WriteString(": " + hint)
	}
	fmt.Fprintf(&b, " (usage: %s; see '%s --help')", c.UseLine(), c.CommandPath())
	return b.String()
}

// quotingFix spots a flag whose value was cut at its first space: `answer
// 2.6 -m Net debt attached` gives -m "Net" and two extra arguments. It
// returns the command line with the value quoted, or "".
func quotingFix(c *cobra.Command, args []string, want int) string {
	if len(args) <= want || want == 0 {
		return ""
	}
	extra := args[want:]
	var fix string
	c.Flags().Visit(func(f *pflag.Flag) {
		if fix != "" || f.Value.Type() != "string" || f.Value.String() == "" {
			return
		}
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand
		}
		joined := f.Value.String() + " " + strings.Join(extra, " ")
		fix = fmt.Sprintf("%s took only %q; quote a value of several words: %s %s %s",
			name, f.Value.String(), c.CommandPath(), strings.Join(args[:want], " "), name+" "+ShellQuote(joined))
	})
	return fix
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = ShellQuote(a)
	}
	return fmt.Sprintf("%d (%s)", len(args), strings.Join(q, " "))
}
