package server

// ListCacheLen is how many list bodies the server keeps, for tests.
func (s *Server) ListCacheLen() int { return s.lists.len() }
