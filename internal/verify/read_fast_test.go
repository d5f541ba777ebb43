//go:build linux || darwin

package verify

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRegular: files of every size read whole into a buffer used
// again, the size limit holds, and what is not a regular file (a named
// pipe, opened without waiting for a writer; a folder) is refused, while
// a symbolic link is left to readLocal.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	var buf []byte
	for _, n := range []int{0, 1, 511, 512, 513, 4945, 70000} {
		p := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("x"), n)
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		var body []byte
		var ok bool
		var err error
		body, buf, ok, err = readRegular(p, 1<<20, buf)
		if !ok || err != nil || !bytes.Equal(body, want) {
			t.Fatalf("%d bytes: ok %v, err %v, read %d bytes", n, ok, err, len(body))
		}
	}
	p := filepath.Join(dir, "f")
	if _, _, _, err := readRegular(p, 69999, buf); err == nil || !strings.Contains(err.Error(), "70000 bytes is over the 69999-byte limit") {
		t.Errorf("over the limit: %v", err)
	}
	if _, _, _, err := readRegular(filepath.Join(dir, "none"), 100, nil); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
	if _, _, ok, err := readRegular(dir, 100, nil); !ok || err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("folder: ok %v, err %v", ok, err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := readRegular(link, 1<<20, nil); ok || err != nil {
		t.Errorf("symbolic link: ok %v, err %v; want it left to readLocal", ok, err)
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, _, err := readRegular(fifo, 100, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "is not a regular file") {
			t.Errorf("named pipe: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a named pipe waits for a writer")
	}
}
