//go:build unix

package site

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestStateOnlyFromRegularFile checks that a named pipe or a link where the
// state file belongs is no state: not read, so a pipe cannot block the
// build, nor a link to /dev/zero fill its memory, nor a link lend it
// another tree's state.
func TestStateOnlyFromRegularFile(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.state")
	if err := sampleState().save(real); err != nil {
		t.Fatal(err)
	}
	if loadState(real).Live == nil {
		t.Fatal("the sample state does not load")
	}
	pipe := filepath.Join(dir, "pipe.state")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	link := filepath.Join(dir, "link.state")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{pipe, link} {
		done := make(chan *buildState, 1)
		go func() {
			loadPrivateRecord(path)
			done <- loadState(path)
		}()
		select {
		case st := <-done:
			if st.Live != nil || st.Standby != nil || st.Private != nil {
				t.Errorf("%s: read as a state", filepath.Base(path))
			}
		case <-time.After(10 * time.Second): // a hang, not a speed limit
			t.Fatalf("%s: still reading after 10 s", filepath.Base(path))
		}
	}
}
