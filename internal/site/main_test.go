package site

import (
	"os"
	"testing"

	"github.com/agentcards/agentcards/internal/htmlexec"
)

// TestMain holds every page the tests render by a compiled program to
// html/template's: a page whose bytes differ fails its render.
func TestMain(m *testing.M) {
	htmlexec.Verify(true)
	os.Exit(m.Run())
}
