package cli

import (
	"time"
)

// noteOutageWait says on stderr why a command is waiting before it sends a
// call again (the server answered 503 with Retry-After), so that a command
// riding out a database restart does not look hung; -q silences it.
func (f *Factory) noteOutageWait(wait time.Duration, reason string) {
	why := "the server is unavailable"
	switch reason {
	case "database_unavailable":
		why = "the server's database is not answering"
	case "schema_newer":
		why = "the server was left behind by an upgrade"
	}
	f.Warnf("%s; trying again in %s", why, wait.Round(100*time.Millisecond))
}
