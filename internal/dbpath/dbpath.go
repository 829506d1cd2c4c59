// Package dbpath says where dealctl's embedded database lives when --db
// and DEALCTL_DB are not given, so that `serve` and `admin` agree on it.
package dbpath

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
)

// EnvVar names the database when --db is not given.
const EnvVar = "DEALCTL_DB"

// Default is the embedded database under the user's data directory:
// $XDG_DATA_HOME/dealctl/dealctl.db, else ~/.local/share/dealctl/dealctl.db
// (on Windows %LocalAppData%\dealctl\dealctl.db).
func Default() (string, error) {
	if dir := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "dealctl", "dealctl.db"), nil
	}
	if runtime.GOOS == "windows" {
		if dir := os.Getenv("LocalAppData"); dir != "" {
			return filepath.Join(dir, "dealctl", "dealctl.db"), nil
		}
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", errors.New("cannot find the home directory for the default database: pass --db or set " + EnvVar)
	}
	return filepath.Join(home, ".local", "share", "dealctl", "dealctl.db"), nil
}

// Source says where the name of the database came from.
type Source int

// Sources of the database's name.
const (
	FromFlag    Source = iota // --db
	FromEnv                   // $DEALCTL_DB
	FromDefault               // nobody named one: the default location
)

// Choice is the database picked and where its name came from. Admin
// commands create a database only when someone named it (FromFlag,
// FromEnv), never at the default location they guessed.
type Choice struct {
	DSN    string
	Source Source
}

// Choose picks the database: the flag's value, else $DEALCTL_DB, else
// Default.
func Choose(flag string) (Choice, error) {
	if flag != "" {
		return Choice{DSN: flag, Source: FromFlag}, nil
	}
	if env := os.Getenv(EnvVar); env != "" {
		return Choice{DSN: env, Source: FromEnv}, nil
	}
	path, err := Default()
	return Choice{DSN: path, Source: FromDefault}, err
}

// Resolve is Choose's database name.
func Resolve(flag string) (string, error) {
	c, err := Choose(flag)
	return c.DSN, err
}
