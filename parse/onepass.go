package parse

import (
	"io"
	"sync"

	"github.com/fairbench/fairbench/parse/rundir"
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
func readSmall(f *rundir.File) (b *[]byte, ok bool, err error) {
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
			return nil, false, f.Rewind()
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
	go func() { sums <- rundir.SHA256(b) }()
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

// ahead is a dump met in a folder walk, opened and, when small, read on
// another goroutine while the dump before it is parsed.
type ahead struct {
	name  string
	done  chan struct{}
	f     *rundir.File
	err   error
	whole *[]byte // all of f, when it is small (readSmall)
}

// readAhead starts opening and reading the dump at name.
func readAhead(name string) *ahead {
	a := &ahead{name: name, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		if a.f, a.err = rundir.OpenNamed(name, rundir.KindDump); a.err != nil || a.f.Size() < 0 || a.f.Size() > onePass {
			return
		}
		b, ok, err := readSmall(a.f)
		switch {
		case err != nil:
			a.f.Close()
			a.f, a.err = nil, err
		case ok:
			a.whole = b
		}
	}()
	return a
}

// scan is scanOpen of the dump read ahead.
func (a *ahead) scan(yield func(Record) bool) []error {
	<-a.done
	if a.whole == nil {
		return scanOpen(a.f, a.err, yield)
	}
	defer a.f.Close()
	defer putWhole(a.whole)
	return scanWhole(*a.whole, a.f.Name(), yield)
}

// drop waits for the read and lets go of what it holds, unparsed.
func (a *ahead) drop() {
	<-a.done
	if a.whole != nil {
		putWhole(a.whole)
	}
	if a.f != nil {
		a.f.Close()
	}
}
