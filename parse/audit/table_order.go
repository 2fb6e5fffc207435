package audit

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// RuleTableRowOrder: the rows of a results table follow no column's order.
const RuleTableRowOrder = "table-row-order"

// A results table is read from the top: its first row is taken for the
// fastest. Every number of a row can match its dumps while the rows were
// moved, so the order is checked too. It is explained when the rows go up
// or down, ties and rounding aside (orderSlack), by one of: a number
// column (a scenario, the average, a percentile, a size, a time); the mean
// or the geometric mean of the scenario columns; the target's name; or,
// with a Runtime column, one of those within each runtime's rows, the
// runtimes' rows kept together. Tables with a row per scenario (a Scenario
// column) are not checked.

// orderSlack is how far against the order two rows' numbers may be and
// still count as tied: the rounding of the printed numbers.
const orderSlack = 1e-3

// rowOrder adds a finding when no order explains the rows' (see above).
func (a *tableAudit) rowOrder() {
	t := a.table
	if len(t.rows) < 3 || slices.Contains(a.roles, colRowScenario) {
		return
	}
	keys := a.orderKeys()
	all := make([]int, len(t.rows))
	for i := range all {
		all[i] = i
	}
	byRuntime, grouped := a.runtimeGroups()
	for _, k := range keys {
		if ordered(k, [][]int{all}) || grouped && ordered(k, byRuntime) {
			return
		}
	}
	if sortedNames(a.cellColumn(colTarget)) {
		return
	}
	a.add(a.orderFinding(keys, all))
}

// orderKeys are the number columns of the table, each row's value or NaN,
// then the mean and geometric mean of each row's scenario columns.
func (a *tableAudit) orderKeys() [][]float64 {
	t := a.table
	var keys [][]float64
	for _, j := range a.orderColumns() {
		col := make([]float64, len(t.rows))
		for i, row := range t.rows {
			col[i] = cellNumber(row, j)
		}
		keys = append(keys, col)
	}
	mean, geo := make([]float64, len(t.rows)), make([]float64, len(t.rows))
	for i, row := range t.rows {
		var sum, logs float64
		n := 0
		for j, role := range a.roles {
			if role == colScenario {
				v := cellNumber(row, j)
				sum, logs, n = sum+v, logs+math.Log(v), n+1
			}
		}
		mean[i], geo[i] = sum/float64(n), math.Exp(logs/float64(n))
	}
	return append(keys, mean, geo)
}

// numeric reports whether column j holds a number in every row.
func numeric(t *mdTable, j int) bool {
	for _, row := range t.rows {
		if math.IsNaN(cellNumber(row, j)) {
			return false
		}
	}
	return true
}

// cellNumber is the number a cell starts with ("52,475", "221.7 ms"), NaN
// when it does not.
func cellNumber(row []string, j int) float64 {
	if j >= len(row) {
		return math.NaN()
	}
	f := strings.Fields(row[j])
	if len(f) == 0 {
		return math.NaN()
	}
	v, _, ok := parseGrouped(f[0])
	if !ok {
		return math.NaN()
	}
	return v
}

// cellColumn is each row's cell in the first column of role, "" if none.
func (a *tableAudit) cellColumn(role string) []string {
	j := slices.Index(a.roles, role)
	out := make([]string, len(a.table.rows))
	for i, row := range a.table.rows {
		if j >= 0 && j < len(row) {
			out[i] = strings.ToLower(row[j])
		}
	}
	return out
}

// runtimeGroups splits the rows by their Runtime cell when the table has
// one and each runtime's rows are together; false otherwise.
func (a *tableAudit) runtimeGroups() ([][]int, bool) {
	if !slices.Contains(a.roles, colRuntime) {
		return nil, false
	}
	var groups [][]int
	done := map[string]bool{}
	runtimes := a.cellColumn(colRuntime)
	for i, r := range runtimes {
		if i > 0 && r == runtimes[i-1] {
			groups[len(groups)-1] = append(groups[len(groups)-1], i)
			continue
		}
		if done[r] {
			return nil, false
		}
		done[r] = true
		groups = append(groups, []int{i})
	}
	return groups, true
}

// ordered reports whether key goes all down, or all up, within each group
// of rows, rows without a number skipped.
func ordered(key []float64, groups [][]int) bool {
	for _, dir := range []float64{1, -1} {
		ok := true
		for _, g := range groups {
			ok = ok && against(key, g, dir) < 0
		}
		if ok {
			return true
		}
	}
	return false
}

// against is the place in rows (of key) of the first row whose number is
// above the one before it, beyond orderSlack, when dir is 1 (going down),
// or below it when dir is -1; -1 when there is none.
func against(key []float64, rows []int, dir float64) int {
	prev := math.NaN()
	for n, i := range rows {
		v := key[i]
		if math.IsNaN(v) {
			continue
		}
		if !math.IsNaN(prev) && dir*(v-prev) > orderSlack*math.Max(math.Abs(v), math.Abs(prev)) {
			return n
		}
		prev = v
	}
	return -1
}

func sortedNames(names []string) bool {
	return slices.IsSorted(names) || slices.IsSortedFunc(names, func(a, b string) int { return strings.Compare(b, a) })
}

// orderFinding names the first pair of rows that the ranking column (the
// Average, else the first number column) has the wrong way round.
func (a *tableAudit) orderFinding(keys [][]float64, all []int) Finding {
	t := a.table
	cols := a.orderColumns()
	col, key := "mean", keys[len(cols)] // the mean of the scenario columns
	if j := slices.Index(a.roles, colAverage); j >= 0 {
		col, key = t.header[j], keys[slices.Index(cols, j)]
	} else if len(cols) > 0 {
		col, key = t.header[cols[0]], keys[0]
	}
	names := a.cellColumn(colTarget)
	n := max(against(key, all, 1), 1)
	lower := n - 1
	for lower > 0 && math.IsNaN(key[lower]) {
		lower--
	}
	return Finding{Rule: RuleTableRowOrder, Level: LevelError, Target: names[lower],
		Message: fmt.Sprintf("%s:%d: the row for %s is above the row for %s (line %d) though its %s is lower (%s and %s), and the rows follow the order of none of the table's columns nor of the names: a table's first row reads as the fastest; sort the rows by one column",
			a.name, t.lines[lower], names[lower], names[n], t.lines[n], col, formatExact(key[lower]), formatExact(key[n]))}
}

// orderColumns are the columns orderKeys made a key of, in its order.
func (a *tableAudit) orderColumns() []int {
	var out []int
	for j, role := range a.roles {
		if role == colTarget || role == colRuntime || role == colOther && !numeric(a.table, j) {
			continue
		}
		out = append(out, j)
	}
	return out
}
