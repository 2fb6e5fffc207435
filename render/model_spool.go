package render

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// spool keeps what the site needs of every run but not all at once in a
// temporary file: each run's cells and repetitions, one gob stream a run,
// for the exports; and each run's history statistics, a fixed-size record
// a cell, for the history pages. In memory when f is nil.
type spool struct {
	f   *os.File
	mem []byte
	end int64
	at  map[string]span // run → its cells
	// points is run → its latency and sweep points (latency_export.go).
	points map[string]span
	buf    bytes.Buffer // a block on its way to the file
	rd     []byte       // a block read back
}

// span is where a block of the spool is: offset and length.
type span struct{ off, n int64 }

// spoolCell is a cell as the exports need it.
type spoolCell struct {
	Target, Runtime, Scenario, Tool string
	RPS, GoodRPS                    verdict.Stat
	Reps                            []exportRep
}

// exportRep is one repetition as results.json and results.csv show it.
type exportRep struct {
	Rep               int
	Tool, ToolVersion string
	RPS, GoodRPS      float64 // completed and good responses ÷ the window (parse.Measurement.Throughput, GoodRPS)
	ToolRPS           float64 // the tool's own req/s, as printed
	RPSBasis          string  // which window RPS is over (parse.RPSPerDuration, …)
	GoodBasis         string  // what GoodRPS counts (parse.Good2xx, parse.GoodBelow400)
	Requests          int64
	Duration          time.Duration
	Mean              time.Duration
	P50, P99          time.Duration
	HasP50, HasP99    bool
	Errors, Non2xx    int64
	Argv              []string
	Source            parse.Source
}

func newExportRep(r *parse.Measurement) exportRep {
	e := exportRep{Rep: r.Rep, Tool: r.Tool, ToolVersion: r.ToolVersion, RPS: r.Throughput(), GoodRPS: r.GoodRPS(),
		ToolRPS: r.ToolRPS, RPSBasis: r.RPSBasis, GoodBasis: r.GoodBasis,
		Requests: r.Requests, Duration: r.Duration, Mean: r.Latency.Mean, Errors: r.Errors.Total(), Non2xx: r.Status.Non2xx,
		Argv: r.Argv, Source: r.Source}
	if r.Status.Known {
		e.Non2xx = r.Status.C1xx + r.Status.C3xx + r.Status.C4xx + r.Status.C5xx + r.Status.Other
	}
	e.P50, e.HasP50 = r.Latency.Percentile(50)
	e.P99, e.HasP99 = r.Latency.Percentile(99)
	return e
}

// newSpool makes the spool file in the temporary folder and removes its
// name at once: the open file stays usable, and the system frees it when
// the process ends, however it ends (a signal, a crash, SIGKILL), so no
// spool of megabytes is left behind.
func newSpool() (*spool, error) {
	f, err := os.CreateTemp("", "fairbench-render-*.spool")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &spool{f: f, at: map[string]span{}}, nil
}

// append adds s.buf to the spool and says where it went.
func (s *spool) append() (span, error) {
	b := s.buf.Bytes()
	if s.f == nil {
		s.mem = append(s.mem, b...)
	} else if _, err := s.f.Write(b); err != nil {
		return span{}, err
	}
	at := span{s.end, int64(len(b))}
	s.end += at.n
	return at, nil
}

// block is the block at, valid until the next call.
func (s *spool) block(at span) ([]byte, error) {
	if s.f == nil {
		return s.mem[at.off : at.off+at.n], nil
	}
	if int64(cap(s.rd)) < at.n {
		s.rd = make([]byte, at.n)
	}
	s.rd = s.rd[:at.n]
	if _, err := s.f.ReadAt(s.rd, at.off); err != nil {
		return nil, err
	}
	return s.rd, nil
}

func (s *spool) put(run string, cells []*verdict.Cell) error {
	out := make([]spoolCell, len(cells))
	for i, c := range cells {
		sc := spoolCell{Target: c.Target, Runtime: c.Runtime, Scenario: c.Scenario, Tool: c.Tool, RPS: c.RPS, GoodRPS: c.GoodRPS}
		for _, r := range c.Reps {
			sc.Reps = append(sc.Reps, newExportRep(r))
		}
		out[i] = sc
	}
	at, err := s.putGob(out)
	if err != nil {
		return err
	}
	s.at[run] = at
	return nil
}

// get reads back one run's cells.
func (s *spool) get(run string) ([]spoolCell, error) {
	var cells []spoolCell
	err := s.getGob(s.at, run, &cells)
	return cells, err
}

// putGob adds v as one gob block.
func (s *spool) putGob(v any) (span, error) {
	s.buf.Reset()
	if err := gob.NewEncoder(&s.buf).Encode(v); err != nil {
		return span{}, err
	}
	return s.append()
}

// getGob decodes into v the block that index holds for run; v is left
// as it is when index has none.
func (s *spool) getGob(index map[string]span, run string, v any) error {
	at, ok := index[run]
	if !ok {
		return nil
	}
	b, err := s.block(at)
	if err != nil {
		return err
	}
	return gob.NewDecoder(bytes.NewReader(b)).Decode(v)
}

// histEntry is the history statistic of one cell of a run, the cell
// numbered as in Input.cells.
type histEntry struct {
	cell int32
	stat histStat
}

// histStat is what history shows of a cell's statistic.
type histStat struct {
	N                                    int
	Median, Lo, Hi, Min, Max, Confidence float64
}

func (h histStat) stat() verdict.Stat {
	return verdict.Stat{N: h.N, Median: h.Median, Lo: h.Lo, Hi: h.Hi, Min: h.Min, Max: h.Max, Confidence: h.Confidence}
}

// histSize is the bytes of a histEntry in the spool: the cell, N and six
// float64s, little-endian.
const histSize = 4 + 8 + 6*8

// putHist adds one run's history statistics.
func (s *spool) putHist(entries []histEntry) (span, error) {
	s.buf.Reset()
	var rec [histSize]byte
	for _, e := range entries {
		b := binary.LittleEndian.AppendUint32(rec[:0], uint32(e.cell))
		b = binary.LittleEndian.AppendUint64(b, uint64(int64(e.stat.N)))
		for _, v := range []float64{e.stat.Median, e.stat.Lo, e.stat.Hi, e.stat.Min, e.stat.Max, e.stat.Confidence} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		s.buf.Write(b)
	}
	return s.append()
}

// getHist reads back the history statistics at, into buf.
func (s *spool) getHist(at span, buf []histEntry) ([]histEntry, error) {
	if at.n%histSize != 0 {
		return nil, fmt.Errorf("history block of %d bytes", at.n)
	}
	b, err := s.block(at)
	if err != nil {
		return nil, err
	}
	out := buf[:0]
	f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b[i:])) }
	for ; len(b) >= histSize; b = b[histSize:] {
		out = append(out, histEntry{cell: int32(binary.LittleEndian.Uint32(b)), stat: histStat{
			N: int(int64(binary.LittleEndian.Uint64(b[4:]))), Median: f(12), Lo: f(20), Hi: f(28), Min: f(36), Max: f(44), Confidence: f(52)}})
	}
	return out, nil
}

func (s *spool) close() error {
	if s.f == nil {
		return nil
	}
	return s.f.Close()
}
