// Command writefloor times the least the file system costs to publish a
// built site: it reads every file and folder under SRC into memory first
// (untimed), then, timed, makes the same tree under DST, a folder that
// must not exist yet, with one worker per core: the folders first, one
// depth at a time (each level's folders on all cores, so that no worker
// makes a folder before its parent), then every file with one plain
// os.WriteFile (mode 0644), workers taking the files by index. It prints
// the elapsed seconds, the number of files and their bytes
// (testdata/bench/run.sh).
//
// It does what a build must do to leave its output on disk and nothing
// more: no reading, no computing, no temporary files or renames, no
// fsync (a build does not sync either), and it writes each file whole,
// in one call. It is a floor for writing a site's files, not a copy
// tool: it skips nothing but refuses what a built site does not hold
// (symbolic links and other special files).
//
//	go run ./testdata/bench/writefloor SRC DST
package main

import (
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// file is one file of the tree, by its path relative to the tree's root.
type file struct {
	rel  string
	data []byte
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("writefloor: ")
	if len(os.Args) != 3 {
		log.Fatal("usage: writefloor SRC DST (SRC a built site; DST a folder that does not exist yet)")
	}
	src, dst := os.Args[1], os.Args[2]
	if _, err := os.Lstat(dst); err == nil {
		log.Fatalf("%s exists: give a folder that does not", dst)
	} else if !os.IsNotExist(err) {
		log.Fatal(err)
	}
	levels, files, size := readTree(src)
	if len(files) == 0 {
		log.Fatalf("no files under %s", src)
	}
	workers := runtime.NumCPU()

	start := time.Now()
	// Mkdir, not MkdirAll: a folder made meanwhile by someone else is
	// refused too.
	if err := os.Mkdir(dst, 0o755); err != nil {
		log.Fatal(err)
	}
	for _, dirs := range levels {
		parallel(workers, len(dirs), func(i int) error {
			return os.Mkdir(filepath.Join(dst, dirs[i]), 0o755)
		})
	}
	parallel(workers, len(files), func(i int) error {
		return os.WriteFile(filepath.Join(dst, files[i].rel), files[i].data, 0o644)
	})
	elapsed := time.Since(start)
	fmt.Printf("%.3f %d %d\n", elapsed.Seconds(), len(files), size)
}

// readTree reads every folder and file under root: the folders grouped
// by depth (levels[0] are root's own subfolders), the files with their
// bytes, and the bytes in all.
func readTree(root string) (levels [][]string, files []file, size int64) {
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		switch {
		case rel == ".":
			if !d.IsDir() {
				return fmt.Errorf("%s is not a folder", root)
			}
		case d.IsDir():
			depth := strings.Count(rel, string(filepath.Separator))
			for len(levels) <= depth {
				levels = append(levels, nil)
			}
			levels[depth] = append(levels[depth], rel)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files = append(files, file{rel, data})
			size += int64(len(data))
		default:
			return fmt.Errorf("%s: not a regular file or folder (%v)", p, d.Type())
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// The walk's order is by name; spread each folder's files over the
	// workers the same way whatever the names.
	slices.SortStableFunc(files, func(a, b file) int { return strings.Compare(a.rel, b.rel) })
	return levels, files, size
}

// parallel calls do(i) for every i below n on the given number of
// goroutines, each taking the next index, and exits on the first error.
func parallel(workers, n int, do func(i int) error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := do(i); err != nil {
					log.Fatal(err)
				}
			}
		})
	}
	wg.Wait()
}
