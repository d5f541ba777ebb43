package manifest

import (
	"bytes"
	"io"
	"sync"
)

// parallelSplitMin is the size from which a manifest is split on several
// cores, and parallelPieceMin the least each piece holds (variables, for
// tests).
var (
	parallelSplitMin int64 = 8 << 20
	parallelPieceMin int64 = 4 << 20
)

// agentsLine is what a piece's first line starts with, after a new line.
var agentsLine = []byte("\n[[agents]]")

// splitAt is split of the size bytes of r, on up to workers cores. A
// large manifest is cut before lines that read "[[agents]]" (a header,
// unless it is inside a multi-line string or value), and each piece is
// split on its own as if that line were a header; the pieces are then
// joined in order, each only once the split of everything before it ends
// outside any string or value, which is when the line it starts with is a
// header. A cut where it is not (a string holding that line) makes the
// whole manifest be split again in one piece, which costs a crafted
// manifest up to twice the work: the result is always split's.
func splitAt(r io.ReaderAt, size int64, workers int) (*layout, error) {
	whole := func() (*layout, error) { return split(io.NewSectionReader(r, 0, size)) }
	n := min(int64(workers), size/max(parallelPieceMin, 1))
	if size < parallelSplitMin || n < 2 {
		return whole()
	}
	starts := []int64{0}
	for k := int64(1); k < n; k++ {
		at, err := nextAgentsLine(r, max(k*size/n, starts[len(starts)-1]+1), size)
		if err != nil {
			return nil, err
		}
		if at < 0 {
			break
		}
		if at > starts[len(starts)-1] {
			starts = append(starts, at)
		}
	}
	if len(starts) == 1 {
		return whole()
	}
	type piece struct {
		s     *splitter
		lines int
		err   error
	}
	pieces := make([]piece, len(starts))
	var wg sync.WaitGroup
	for k, start := range starts {
		end := size
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		wg.Go(func() {
			s := &splitter{cur: &span{off: start, line: 1}}
			lines, _, err := s.read(io.NewSectionReader(r, start, end-start), start, int(min(end-start+1, 1<<20)))
			pieces[k] = piece{s, lines, err}
		})
	}
	wg.Wait()
	out := pieces[0].s
	if pieces[0].err != nil {
		return nil, pieces[0].err
	}
	line := 1 + pieces[0].lines // the line a piece starts at
	for k := 1; k < len(pieces); k++ {
		if out.ml != 0 || out.depth != 0 {
			return whole() // the piece starts inside a string or value
		}
		p := pieces[k]
		if p.err != nil {
			return nil, p.err
		}
		out.join(p.s, starts[k], line-1)
		line += p.lines
	}
	out.close(size)
	return &out.out, nil
}

// nextAgentsLine returns the offset of the first line at or after from
// (from counts as a line start only after a new line) that is
// "[[agents]]" alone, or -1.
func nextAgentsLine(r io.ReaderAt, from, size int64) (int64, error) {
	window := min(size-from+1, 1<<20)
	buf := make([]byte, window+int64(len(agentsLine)))
	for at := from - 1; at < size; at += window {
		n, err := r.ReadAt(buf[:min(int64(len(buf)), size-at)], at)
		if err != nil && err != io.EOF {
			return 0, err
		}
		b := buf[:n]
		for i := 0; ; {
			j := bytes.Index(b[i:], agentsLine)
			if j < 0 {
				break
			}
			i += j
			if end := i + len(agentsLine); end < len(b) && (b[end] == '\n' || b[end] == '\r') {
				return at + int64(i) + 1, nil
			}
			i++
		}
	}
	return -1, nil
}
