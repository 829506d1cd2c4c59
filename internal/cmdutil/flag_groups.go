package cmdutil

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The annotations cobra's MarkFlagsRequiredTogether, MarkFlagsOneRequired
// and MarkFlagsMutuallyExclusive put on each flag of a group: the group,
// its flag names joined by spaces.
const (
	groupTogether  = "cobra_annotation_required_if_others_set"
	groupOneOf     = "cobra_annotation_one_required"
	groupExclusive = "cobra_annotation_mutually_exclusive"
)

// checkFlagGroups is cobra's check of flag groups, made before cobra's own
// (which answers in a plain error of its words) so that a broken group is
// a usage error naming the flags as they are typed. It checks, as cobra
// does, groups that must go together, then groups one of which is
// required, then groups of which one at most may be given.
func checkFlagGroups(c *cobra.Command) error {
	flags := c.Flags()
	help := fmt.Sprintf("(see '%s --help')", c.CommandPath())
	for _, group := range groupsOf(flags, groupTogether) {
		if set, unset := setAndUnset(flags, group); len(set) > 0 && len(unset) > 0 {
			return UsageErrorf("%s go together: also give %s %s", flagList(c, group, "and"), flagList(c, unset, "and"), help)
		}
	}
	for _, group := range groupsOf(flags, groupOneOf) {
		if set, _ := setAndUnset(flags, group); len(set) == 0 {
			return UsageErrorf("give %s %s", flagList(c, group, "or"), help)
		}
	}
	for _, group := range groupsOf(flags, groupExclusive) {
		if set, _ := setAndUnset(flags, group); len(set) > 1 {
			return UsageErrorf("%s cannot be used together: give only one %s", flagList(c, set, "and"), help)
		}
	}
	return nil
}

// groupsOf lists, sorted, the groups of kind whose flags are all defined
// on the command (cobra leaves the others alone).
func groupsOf(flags *pflag.FlagSet, kind string) [][]string {
	seen := map[string]bool{}
	var groups [][]string
	flags.VisitAll(func(f *pflag.Flag) {
		for _, group := range f.Annotations[kind] {
			names := strings.Split(group, " ")
			if seen[group] || slices.ContainsFunc(names, func(n string) bool { return flags.Lookup(n) == nil }) {
				continue
			}
			seen[group] = true
			groups = append(groups, names)
		}
	})
	slices.SortFunc(groups, func(a, b []string) int { return strings.Compare(strings.Join(a, " "), strings.Join(b, " ")) })
	return groups
}

// setAndUnset splits a group's flags, sorted, by whether they were given.
func setAndUnset(flags *pflag.FlagSet, group []string) (set, unset []string) {
	for _, name := range slices.Sorted(slices.Values(group)) {
		if flags.Lookup(name).Changed {
			set = append(set, name)
		} else {
			unset = append(unset, name)
		}
	}
	return set, unset
}

// flagList spells flag names as typed ("-m/--message and -F/--file").
func flagList(cmd *cobra.Command, names []string, conj string) string {
	var spelled []string
	for _, name := range names {
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
