package cli

import (
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// parseEnumList splits "a,b" and checks each value against allowed.
func parseEnumList[T ~string](flag string, values []string, allowed []T) ([]T, error) {
	var out []T
	for _, v := range values {
		for _, p := range strings.Split(v, ",") {
			p = strings.TrimSpace(strings.ToLower(p))
			if p == "" {
				continue
			}
			if !api.OneOf(T(p), allowed) {
				return nil, cmdutil.UsageErrorf("--%s %q: choose from %s%s", flag, p, joinEnum(allowed), didYouMean(p, names(allowed)))
			}
			out = append(out, T(p))
		}
	}
	return out, nil
}

func joinEnum[T ~string](xs []T) string {
	return strings.Join(names(xs), ", ")
}

func names[T ~string](xs []T) []string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return s
}

// parseEnum checks one value.
func parseEnum[T ~string](what, v string, allowed []T) (T, error) {
	t := T(strings.ToLower(strings.TrimSpace(v)))
	if !api.OneOf(t, allowed) {
		return "", cmdutil.UsageErrorf("%s %q: choose from %s%s", what, v, joinEnum(allowed), didYouMean(v, names(allowed)))
	}
	return t, nil
}
