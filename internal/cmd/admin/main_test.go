package admin

import (
	"os"
	"testing"

	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/s3test"
)

// TestMain runs a child role when asked (see attachChild), else the
// tests, then stops the throwaway PostgreSQL and S3 servers they may have
// started.
func TestMain(m *testing.M) {
	if os.Getenv(childRoleEnv) != "" {
		os.Exit(runChild())
	}
	code := m.Run()
	pgtest.Stop()
	s3test.Stop()
	os.Exit(code)
}
