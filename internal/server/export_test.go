package server

// ListCacheLen is how many lists (row sets) the server keeps, for tests.
func (s *Server) ListCacheLen() int {
	n, _ := s.lists.usage()
	return n
}

// ListCacheBytes is what the kept lists count against the cache's budget.
func (s *Server) ListCacheBytes() int {
	_, n := s.lists.usage()
	return n
}

// SetBodyLimits replaces the bounds on bodies being read at once, for
// tests that reach them with a few calls.
func (s *Server) SetBodyLimits(perKey, overall int) { s.bodies = newBodyGate(perKey, overall) }

// BodiesBeingRead is how many bodies are being read.
func (s *Server) BodiesBeingRead() int {
	s.bodies.mu.Lock()
	defer s.bodies.mu.Unlock()
	return s.bodies.total
}
