package mcpserver

func (s *Server) addPrompts() {}
