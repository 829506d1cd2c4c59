package admin

import (
	"os"
	"testing"

	"github.com/dealctl/dealctl/internal/pgtest"
)

// TestMain stops the throwaway PostgreSQL the tests may have started.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
