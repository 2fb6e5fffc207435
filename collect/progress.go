package collect

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress is told what a collect is doing. The collector calls it from one
// goroutine.
type Progress interface {
	// Plan announces the load windows (warm-ups and measurements) still to
	// run: how many and their total length. It may be called again when the
	// plan changes (a target fails its gate).
	Plan(windows int, total time.Duration)
	// Step starts a step. window is its load window, 0 for a step without
	// one (a build, a gate).
	Step(what string, window time.Duration)
	// Note is a message that is not a step: a skipped target, an error.
	Note(msg string)
	// Done ends the run.
	Done()
}

// ProgressFor returns a bar with an ETA when w is a terminal, and one line
// per step otherwise; nil w discards progress.
func ProgressFor(w io.Writer) Progress {
	if w == nil {
		return NewLineProgress(io.Discard)
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return NewBarProgress(w)
	}
	return NewLineProgress(w)
}

// LineProgress writes one line per step, numbering the load windows.
type LineProgress struct {
	w           io.Writer
	done, total int
}

// NewLineProgress returns a Progress writing lines to w.
func NewLineProgress(w io.Writer) *LineProgress { return &LineProgress{w: w} }

// Plan implements Progress.
func (p *LineProgress) Plan(windows int, total time.Duration) {
	p.total = p.done + windows
}

// Step implements Progress.
func (p *LineProgress) Step(what string, window time.Duration) {
	if window == 0 {
		fmt.Fprintln(p.w, what)
		return
	}
	p.done++
	fmt.Fprintf(p.w, "[%d/%d] %s (%v)\n", p.done, p.total, what, window)
}

// Note implements Progress.
func (p *LineProgress) Note(msg string) { fmt.Fprintln(p.w, msg) }

// Done implements Progress.
func (p *LineProgress) Done() {}

// BarProgress draws a bar measured in seconds of load windows, so that its
// ETA counts what is left to run; the bar moves during a window too.
type BarProgress struct {
	w    io.Writer
	bar  *progressbar.ProgressBar
	mu   sync.Mutex
	base time.Duration // windows finished
	cur  time.Duration // the running window
	from time.Time     // when it started
	stop chan struct{}
}

// NewBarProgress returns a Progress drawing a bar on the terminal w.
func NewBarProgress(w io.Writer) *BarProgress {
	p := &BarProgress{w: w, stop: make(chan struct{})}
	p.bar = progressbar.NewOptions64(1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("collect"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	go p.tick()
	return p
}

// tick moves the bar through the running window.
func (p *BarProgress) tick() {
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			if p.cur > 0 {
				p.bar.Set64(int64((p.base + min(time.Since(p.from), p.cur)) / time.Millisecond))
			}
			p.mu.Unlock()
		}
	}
}

// Plan implements Progress.
func (p *BarProgress) Plan(windows int, total time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.ChangeMax64(max(1, int64((p.base+p.cur+total)/time.Millisecond)))
}

// Step implements Progress.
func (p *BarProgress) Step(what string, window time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.base += p.cur
	p.cur, p.from = window, time.Now()
	p.bar.Describe(what)
	p.bar.Set64(int64(p.base / time.Millisecond))
}

// Note implements Progress: the message is printed above the bar.
func (p *BarProgress) Note(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.Clear()
	fmt.Fprintln(p.w, msg)
}

// Done implements Progress.
func (p *BarProgress) Done() {
	close(p.stop)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.Finish()
}
