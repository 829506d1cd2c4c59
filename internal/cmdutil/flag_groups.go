package cmdutil

import (
	"fmt"
	"maps"
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
	var broken [][]string
	for _, group := range groupsOf(flags, groupExclusive) {
		if set, _ := setAndUnset(flags, group); len(set) > 1 {
			broken = append(broken, set)
		}
	}
	if len(broken) > 0 {
		return exclusiveError(c, broken, help)
	}
	return nil
}

// excludesWhyAnnotation, on a flag, says why it cannot go with the flags
// it excludes (MarkFlagExcludes): the usage error says it.
const excludesWhyAnnotation = "dealctl/excludes-why"

// MarkFlagExcludes makes flag and each of others mutually exclusive with
// cobra's MarkFlagsMutuallyExclusive, a pair each, so that the others may
// still go together; why ("--similar posts nothing") is what the usage
// error says when they are given with it. Cobra's completion then stops
// offering the others once flag is typed, and the reverse.
func MarkFlagExcludes(cmd *cobra.Command, flag, why string, others ...string) {
	for _, other := range others {
		cmd.MarkFlagsMutuallyExclusive(flag, other)
	}
	if why != "" {
		_ = cmd.Flags().SetAnnotation(flag, excludesWhyAnnotation, []string{why})
	}
}

// exclusiveError refuses the flags given together that may not be, in
// one message for the whole line. The flag in the most broken pairs (the
// one that says why it excludes the others first: --similar with
// --partial and --kind) is named once with all the others, with why it
// excludes them where it says (excludesWhyAnnotation); the pairs broken
// without it follow.
func exclusiveError(c *cobra.Command, broken [][]string, help string) error {
	hub, why := hubOf(c, broken)
	var others []string
	var parts []string
	for _, set := range broken {
		if hub == "" || !slices.Contains(set, hub) {
			parts = append(parts, flagList(c, set, "and")+" cannot be used together")
			continue
		}
		for _, name := range set {
			if name != hub && !slices.Contains(others, name) {
				others = append(others, name)
			}
		}
	}
	if hub == "" {
		only := "give only one"
		if len(parts) > 1 {
			only += " of each"
		}
		return UsageErrorf("%s: %s %s", strings.Join(parts, "; "), only, help)
	}
	slices.Sort(others)
	if why == "" {
		why = fmt.Sprintf("%s cannot be used with %s", flagList(c, []string{hub}, ""), flagList(c, others, "or"))
	}
	first := fmt.Sprintf("%s: leave out %s, or leave out %s", why, flagList(c, others, "and"), flagList(c, []string{hub}, ""))
	return UsageErrorf("%s %s", strings.Join(append([]string{first}, parts...), "; and "), help)
}

// hubOf is the flag to name once with the others it excludes: of the
// flags that say why they exclude others, the one in the most broken
// groups; else the flag in the most groups, where it is in more than
// one; "" where none is (one group alone is broken, and neither of its
// flags says why). Ties go to the first by name.
func hubOf(c *cobra.Command, broken [][]string) (hub, why string) {
	count := map[string]int{}
	for _, set := range broken {
		for _, name := range set {
			count[name]++
		}
	}
	for _, name := range slices.Sorted(maps.Keys(count)) {
		if w := c.Flags().Lookup(name).Annotations[excludesWhyAnnotation]; len(w) > 0 && w[0] != "" && (why == "" || count[name] > count[hub]) {
			hub, why = name, w[0]
		}
	}
	if why != "" {
		return hub, why
	}
	for _, name := range slices.Sorted(maps.Keys(count)) {
		if count[name] > 1 && (hub == "" || count[name] > count[hub]) {
			hub = name
		}
	}
	return hub, ""
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
