// Package dbopen words the failure to open the database the same way for
// `dealctl serve` and `dealctl admin`, which both open it directly: what
// is wrong, where dealctl looked, and how to point it elsewhere.
package dbopen

import (
	"errors"
	"fmt"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/dbpath"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// Error says why the database could not be opened and, when the
// cause is where dealctl looked, how to point it elsewhere.
func Error(choice dbpath.Choice, err error) error {
	where := dbpath.Redact(choice.DSN)
	var missing *sqlstore.MissingError
	var newer *sqlstore.SchemaNewerError
	switch {
	case errors.As(err, &missing) && missing.Postgres:
		return cmdutil.WithExit(cmdutil.ExitNotFound, fmt.Errorf("%w (%s): check the URL, or create the database (createdb -O ROLE NAME), then run 'dealctl admin migrate'", missing, sourceOf(choice)))
	case errors.As(err, &missing):
		return cmdutil.WithExit(cmdutil.ExitNotFound, fmt.Errorf("%w; %s", missing, chooseDatabaseHint(choice)))
	case errors.As(err, &newer):
		return fmt.Errorf("cannot use the database %s: %w", where, newer)
	}
	return fmt.Errorf("cannot open the database %s: %w (%s)", where, err, sourceOf(choice))
}

// sourceOf says where the database's name came from.
func sourceOf(choice dbpath.Choice) string {
	switch choice.Source {
	case dbpath.FromFlag:
		return "named by --db"
	case dbpath.FromEnv:
		return "named by " + dbpath.EnvVar
	}
	return "the default location: neither --db nor " + dbpath.EnvVar + " is set"
}

// chooseDatabaseHint tells how to name the right database, or create one.
func chooseDatabaseHint(choice dbpath.Choice) string {
	if choice.Source == dbpath.FromDefault {
		return fmt.Sprintf("that is the default location, used because neither --db nor %s is set (a sudo that drops the environment does this): pass --db with the server's database, or set %s; to create a new one there, run 'dealctl admin migrate --db %s'",
			dbpath.EnvVar, dbpath.EnvVar, cmdutil.ShellQuote(choice.DSN))
	}
	return fmt.Sprintf("it was %s: check the name, or create the database with 'dealctl admin migrate --db %s'",
		sourceOf(choice), cmdutil.ShellQuote(dbpath.Redact(choice.DSN)))
}
