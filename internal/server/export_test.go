package server

// ListCacheLen is how many list bodies the server keeps, for tests.
func (s *Server) ListCacheLen() int {
	c := s.lists
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
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
