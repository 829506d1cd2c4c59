package mcpserver

func (s *Server) addResources() {}
