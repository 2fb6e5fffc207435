package parse

// autocannon's tables pasted without the lines above them: posts drop
// "Running 10s test @ <url>" and "100 connections with 10 pipelining
// factor" and keep the tables and the summary, often with the padding
// collapsed by the page, the box borders turned into "+---+" and "|", or
// the rows made into a Markdown table:
//
//	┌─────────┬──────┬──────┬───────┬───────┬─────────┬────────┬───────┐
//	│ Stat │ 2.5% │ 50% │ 97.5% │ 99% │ Avg │ Stdev │ Max │
//	│ Latency │ 5 ms │ 6 ms │ 11 ms │ 13 ms │ 6.63 ms │ 1.4 ms │ 30 ms │
//	…
//	1409k requests in 10.05s, 179 MB read
//
// Such a run is read as autocannon's, with its URL, connections,
// pipelining, workers and requested duration unknown unless a command line
// or the post's title line gives them (never guessed; the audit's
// settings-unknown rule says what is missing).

// startAutocannonTable starts a block at a table's top border or at a
// "Stat" header row outside any run.
func startAutocannonTable(ctx *context, l line) block {
	t := l.trimmed()
	switch {
	case isTableRow(t):
		if !statHeader(t) {
			return nil
		}
		b := newAutocannonPasted(ctx, l)
		if _, err := b.add(l); err != nil {
			return &doneBlock{err: err}
		}
		return b
	case isTableRule(t):
		return &pastedTableStart{ctx: ctx, first: l}
	}
	return nil
}

// statHeader reports whether a row is the header of autocannon's latency
// or rate table: "Stat" and then percentile columns.
func statHeader(t string) bool {
	var buf [16]string
	cells := appendCells(buf[:0], t)
	return len(cells) > 2 && cells[0] == "Stat" && cells[1] != "" && cells[1][len(cells[1])-1] == '%'
}

// pastedTableStart holds a border until the row after it tells whether the
// table is autocannon's.
type pastedTableStart struct {
	ctx   *context
	first line
	inner *autocannonText
}

func (b *pastedTableStart) add(l line) (bool, error) {
	if b.inner != nil {
		return b.inner.add(l)
	}
	t := l.trimmed()
	if !isTableRow(t) || !statHeader(t) {
		return false, nil // another table, or a Markdown rule
	}
	b.inner = newAutocannonPasted(b.ctx, b.first)
	return b.inner.add(l)
}

func (b *pastedTableStart) end() ([]Record, error) {
	if b.inner == nil {
		return nil, nil
	}
	return b.inner.end()
}

// newAutocannonPasted returns a block for autocannon's tables without the
// lines above them, first being the first line of its first table.
func newAutocannonPasted(ctx *context, first line) *autocannonText {
	m := &Measurement{Tool: ToolAutocannon, Source: Source{LineStart: first.num}}
	s := &m.Settings
	s.URL, s.Connections, s.Threads, s.Pipelining, s.Duration = FromUnknown, FromUnknown, FromUnknown, FromUnknown, FromUnknown
	return &autocannonText{ctx: ctx, m: m, last: first.num, pcts: map[float64]Percentile{}, pasted: true}
}
