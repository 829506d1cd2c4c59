package dbpath

import (
	"net/url"
	"strings"
)

// mask stands in for a secret; url.Redacted and pgx use the same.
const mask = "xxxxx"

// secretKeys are the connection parameters whose values are secrets, in a
// URL's query (`?password=…`) or a libpq keyword DSN (`password=…`).
var secretKeys = map[string]bool{"password": true, "sslpassword": true}

// Redact returns dsn fit to print in a log line, an error or help text:
// the password of a `scheme://user:pass@host` URL, `password` and
// `sslpassword` in its query, and the same keywords of a libpq
// `key=value` DSN are replaced by xxxxx. A file path comes back as it is.
// A URL it cannot parse comes back with everything between `://` and the
// host hidden, since it cannot tell where the secret ends.
func Redact(dsn string) string {
	scheme, rest, isURL := strings.Cut(dsn, "://")
	if isURL && scheme != "" && !strings.ContainsAny(scheme, "/ =") {
		return redactURL(dsn, scheme, rest)
	}
	if strings.Contains(dsn, "=") {
		return redactKeywords(dsn)
	}
	return dsn
}

func redactURL(dsn, scheme, rest string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		// The last @ ends the user information; without one there is
		// nothing secret before the host, but what follows may still be
		// a query with a password, so hide the whole rest.
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			return scheme + "://" + mask + "@" + redactRawQuery(rest[at+1:])
		}
		return scheme + "://" + mask
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), mask)
		}
	}
	u.RawQuery = redactQuery(u.RawQuery)
	// url.URL.String escapes the mask's userinfo as is; the query is
	// already raw.
	return u.String()
}

// redactRawQuery masks the query part of an unparsed URL tail.
func redactRawQuery(tail string) string {
	head, query, ok := strings.Cut(tail, "?")
	if !ok {
		return tail
	}
	return head + "?" + redactQuery(query)
}

// redactQuery masks secret parameters of a raw query, keeping the others
// and their order as written.
func redactQuery(raw string) string {
	if raw == "" {
		return raw
	}
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		k, _, _ := strings.Cut(p, "=")
		if name, err := url.QueryUnescape(k); err == nil && secretKeys[strings.ToLower(name)] || secretKeys[strings.ToLower(k)] {
			parts[i] = k + "=" + mask
		}
	}
	return strings.Join(parts, "&")
}

// redactKeywords masks secret values of a libpq keyword DSN:
// `host=db user=u password='a b\'c' dbname=x`. Values may be quoted with
// single quotes, with backslash escapes inside.
func redactKeywords(dsn string) string {
	var b strings.Builder
	b.Grow(len(dsn))
	for i := 0; i < len(dsn); {
		// Copy white space.
		if dsn[i] == ' ' || dsn[i] == '\t' || dsn[i] == '\n' || dsn[i] == '\r' {
			b.WriteByte(dsn[i])
			i++
			continue
		}
		// A keyword runs to '=' (spaces around it are allowed).
		eq := strings.IndexByte(dsn[i:], '=')
		if eq < 0 {
			b.WriteString(dsn[i:])
			break
		}
		key := strings.TrimSpace(dsn[i : i+eq])
		b.WriteString(dsn[i : i+eq+1])
		i += eq + 1
		for i < len(dsn) && dsn[i] == ' ' {
			b.WriteByte(' ')
			i++
		}
		end := valueEnd(dsn, i)
		if secretKeys[strings.ToLower(key)] {
			b.WriteString(mask)
		} else {
			b.WriteString(dsn[i:end])
		}
		i = end
	}
	return b.String()
}

// valueEnd finds where the value starting at i ends: after its closing
// quote when quoted (an unclosed quote runs to the end), else at the next
// white space.
func valueEnd(s string, i int) int {
	if i < len(s) && s[i] == '\'' {
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '\'':
				return j + 1
			}
		}
		return len(s)
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r' {
		if s[j] == '\\' {
			j++
		}
		j++
	}
	return min(j, len(s))
}
