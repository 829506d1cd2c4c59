//go:build !unix

package pgtest

import "errors"

type server struct{ url string }

func findBinaries() (string, bool) { return "", false }

func start(string) (*server, error) { return nil, errors.New("not supported on this system") }

func (s *server) stop() {}
