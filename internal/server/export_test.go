package server

// ListCacheLen is how many list bodies the server keeps, for tests.
func (s *Server) ListCacheLen() int {
	c := s.lists
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
