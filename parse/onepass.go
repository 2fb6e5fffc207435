package parse

import (
	"io"
	"sync"
)

// A small dump is read into memory with one read and parsed from there,
// while another goroutine hashes the same bytes: the sha256 costs about as
// much as reading the file, and would otherwise come on top of it. Its
// records are held until the sum is known; at a few KB a run they take a
// few times the file's size, so only files up to onePass are read this
// way. A larger file is hashed first and read again (scanOpen), so that
// memory stays flat in the number of runs it holds.

// onePass is the largest regular file read in one pass.
const onePass = 1 << 20

// wholeFiles keeps the buffers small dumps are read into between files.
var wholeFiles sync.Pool

// readSmall reads all of f when it holds at most onePass bytes; ok is false
// (with nothing lost: f is rewound) when it grew past that while it was
// read. The buffer is the pool's until putWhole.
func readSmall(f *RunFile) (b *[]byte, ok bool, err error) {
	b, _ = wholeFiles.Get().(*[]byte)
	if b == nil || cap(*b) < int(f.Size())+1 {
		b = new([]byte)
		*b = make([]byte, 0, max(f.Size()+1, 64<<10))
	}
	buf := (*b)[:0]
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case err == io.EOF:
			*b = buf
			return b, true, nil
		case err != nil:
			putWhole(b)
			return nil, false, err
		case len(buf) > onePass:
			putWhole(b)
			return nil, false, f.rewind()
		case len(buf) == cap(buf):
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// putWhole gives a buffer of readSmall back to the pool.
func putWhole(b *[]byte) {
	if cap(*b) <= 2*onePass {
		*b = (*b)[:0]
		wholeFiles.Put(b)
	}
}

// scanWhole parses the dump held in b, named name, and calls yield with
// each record until it returns false; it hashes b meanwhile on another
// goroutine, and returns when that is done with b.
func scanWhole(b []byte, name string, yield func(Record) bool) []error {
	sums := make(chan string, 1)
	go func() { sums <- DumpSHA256(b) }()
	sum := ""
	r := newHeldReader(b, name, func() string {
		if sum == "" {
			sum = <-sums
		}
		return sum
	})
	for r.Scan() {
		if !yield(r.Result()) {
			break
		}
	}
	if sum == "" {
		<-sums
	}
	return r.Errs()
}
