package cli

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Usage mistakes say what the command takes and the likely fix, in
// dealctl's words rather than cobra's ("accepts 1 arg(s), received 3").

// argsHintAnnotation is a command's note on its arguments, added to an
// argument-count mistake: "STATUS is open, partial or complete".
const argsHintAnnotation = "dealctl/args-hint"

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
			return cmdutil.UsageErrorf("%s", argCountMessage(c, args))
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
	} else if hint := c.Annotations[argsHintAnnotation]; hint != "" {
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
			name, f.Value.String(), c.CommandPath(), strings.Join(args[:want], " "), name+" "+cmdutil.ShellQuote(joined))
	})
	return fix
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = cmdutil.ShellQuote(a)
	}
	return fmt.Sprintf("%d (%s)", len(args), strings.Join(q, " "))
}

// didYouMean is ` (did you mean "x"?)` for the allowed value nearest v
// when it is near enough to be a typo, else "".
func didYouMean(v string, allowed []string) string {
	best, bestD := "", 3
	lv := strings.ToLower(v)
	for _, a := range allowed {
		d := editDistance(lv, strings.ToLower(a))
		if strings.HasPrefix(strings.ToLower(a), lv) && lv != "" {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = a, d
		}
	}
	if best == "" || bestD > max(1, len(v)/3) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
