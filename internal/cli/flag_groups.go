package cli

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/spf13/cobra"
)

// flagGroupREs match cobra's messages for flag groups
// (MarkFlagsMutuallyExclusive, MarkFlagsRequiredTogether,
// MarkFlagsOneRequired), which arrive as plain errors in cobra's words.
// Compiled on the first such error: start-up is every command's cost.
var flagGroupREs = sync.OnceValue(func() [3]*regexp.Regexp {
	return [3]*regexp.Regexp{
		regexp.MustCompile(`^if any flags in the group \[([^\]]*)\] are set none of the others can be; \[([^\]]*)\] were all set$`),
		regexp.MustCompile(`^if any flags in the group \[([^\]]*)\] are set they must all be set; missing \[([^\]]*)\]$`),
		regexp.MustCompile(`^at least one of the flags in the group \[([^\]]*)\] is required$`),
	}
})

// flagGroupError turns cobra's flag-group errors into usage errors (exit
// 2) in a sentence naming the flags as they are typed; other errors pass
// through.
func flagGroupError(cmd *cobra.Command, err error) error {
	if cmd == nil {
		return err
	}
	msg := err.Error()
	help := fmt.Sprintf("(see '%s --help')", cmd.CommandPath())
	exclusive, together, oneOf := flagGroupREs()[0], flagGroupREs()[1], flagGroupREs()[2]
	if m := exclusive.FindStringSubmatch(msg); m != nil {
		return cmdutil.UsageErrorf("%s cannot be used together: give only one %s", flagList(cmd, m[2], "and"), help)
	}
	if m := together.FindStringSubmatch(msg); m != nil {
		return cmdutil.UsageErrorf("%s go together: also give %s %s", flagList(cmd, m[1], "and"), flagList(cmd, m[2], "and"), help)
	}
	if m := oneOf.FindStringSubmatch(msg); m != nil {
		return cmdutil.UsageErrorf("give %s %s", flagList(cmd, m[1], "or"), help)
	}
	return err
}

// flagList spells cobra's space-separated flag names as typed ("-m/--message
// and -F/--file").
func flagList(cmd *cobra.Command, names, conj string) string {
	var spelled []string
	for _, name := range strings.Fields(names) {
		s := "--" + name
		if f := cmd.Flags().Lookup(name); f != nil && f.Shorthand != "" {
			s = "-" + f.Shorthand + "/" + s
		}
		spelled = append(spelled, s)
	}
	switch len(spelled) {
	case 0:
		return ""
	case 1:
		return spelled[0]
	}
	return strings.Join(spelled[:len(spelled)-1], ", ") + " " + conj + " " + spelled[len(spelled)-1]
}
