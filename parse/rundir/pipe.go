package rundir

import (
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"
)

// A pipe named on the command line (a FIFO, bash's <(command)) gives its
// bytes once, but a command may open a named input twice: render parses a
// dump, then copies it byte for byte into the site; compare may be given
// the same path twice. The second open of a pipe would read nothing (no
// writer is left) or wait for one. So the first read of a pipe through
// OpenNamed keeps its bytes, as they come, in a temporary file unlinked at
// once (nothing is left behind, even by a killed process), and a later
// open of the same pipe (by device and inode) in this process reads those
// bytes. Each named input is thereby read once. A copy lives as long as the
// process: a command names a handful of pipes.

// pipeCopies are the copies of the pipes read so far, by device and inode.
var pipeCopies = struct {
	sync.Mutex
	byKey map[pipeKey]*pipeCopy
}{byKey: map[pipeKey]*pipeCopy{}}

type pipeKey struct{ dev, ino uint64 }

// pipeCopy is the bytes of one pipe read so far; done once its writer
// closed it and every byte was kept. pin is a descriptor of the pipe held
// open while the copy lives, so that its inode cannot be freed and taken
// by another file, which its key would then wrongly name.
type pipeCopy struct {
	file *os.File
	pin  int
	n    int64
	done bool
}

// drop forgets the copy under key; pipeCopies is locked.
func (c *pipeCopy) drop(key pipeKey) {
	c.file.Close()
	syscall.Close(c.pin)
	delete(pipeCopies.byKey, key)
}

// pin is a second descriptor of f, taken without turning f's reads
// blocking (as f.Fd would).
func pin(f *os.File) (int, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd, derr := -1, error(nil)
	if err := raw.Control(func(d uintptr) { fd, derr = syscall.Dup(int(d)) }); err != nil {
		return -1, err
	}
	return fd, derr
}

// openPipe returns the pipe f (opened as name, without waiting for a
// writer) for reading: the bytes kept of it when an earlier read reached
// its end, else the pipe itself, its bytes kept as they are read.
func openPipe(f *os.File, info fs.FileInfo, name string, kind FileKind) *File {
	limit := kind.Limit()
	st, _ := info.Sys().(*syscall.Stat_t)
	pipe := &pipeReader{f: f, deadline: time.Now().Add(streamWait)}
	rf := &File{f: f, name: name, kind: kind, limit: limit, size: -1}
	rf.r = io.LimitedReader{R: pipe, N: limit + 1}
	if st == nil {
		return rf
	}
	key := pipeKey{uint64(st.Dev), uint64(st.Ino)}
	pipeCopies.Lock()
	defer pipeCopies.Unlock()
	if c := pipeCopies.byKey[key]; c != nil && c.done {
		f.Close()
		kept := io.NewSectionReader(c.file, 0, c.n)
		rf.f, rf.kept, rf.size = nil, kept, c.n
		rf.r.R = kept
		return rf
	}
	// A copy not finished (its reader stopped early) is dropped: this
	// read starts where the pipe is now.
	if old := pipeCopies.byKey[key]; old != nil {
		old.drop(key)
	}
	fd, err := pin(f)
	if err != nil {
		return rf // out of descriptors: read once, as it comes
	}
	tmp, err := os.CreateTemp("", "fairbench-pipe-*")
	if err != nil {
		syscall.Close(fd)
		return rf // no room to keep it: read once, as it comes
	}
	os.Remove(tmp.Name())
	c := &pipeCopy{file: tmp, pin: fd}
	pipeCopies.byKey[key] = c
	rf.r.R = &keptPipe{r: pipe, c: c, key: key}
	return rf
}

// keptPipe reads a pipe and keeps what it reads in its copy.
type keptPipe struct {
	r   io.Reader
	c   *pipeCopy
	key pipeKey
}

func (k *keptPipe) Read(b []byte) (int, error) {
	n, err := k.r.Read(b)
	pipeCopies.Lock()
	defer pipeCopies.Unlock()
	if pipeCopies.byKey[k.key] != k.c {
		return n, err // dropped by a later open: nothing more to keep
	}
	if n > 0 {
		if _, werr := k.c.file.WriteAt(b[:n], k.c.n); werr != nil {
			k.c.drop(k.key) // a copy with a hole is no copy
			return n, err
		}
		k.c.n += int64(n)
	}
	if err == io.EOF {
		k.c.done = true
	}
	return n, err
}
