package verdict

// Thresholds are the numbers that decide when a difference is claimed and
// when an audit rule fires. Start from DefaultThresholds and change fields;
// a zero Thresholds is not useful.
type Thresholds struct {
	// Alpha is the family-wise significance level of the verdicts: Holm's
	// correction keeps the chance of any false claim among the pairs of one
	// scenario of one run at or under it (see MethodWelchLog).
	Alpha float64
	// Confidence is the level of the confidence intervals of medians and
	// of ratios, in (0, 1).
	Confidence float64
	// Noise is the relative difference below which no difference is claimed
	// even when it is significant (0.02 = 2%): hosts drift that much.
	Noise float64
	// Resolve is the equivalence margin of a run that recorded none
	// (0.10 = ±10%): a pair whose ratio two one-sided tests put within it
	// is equivalent. A run collected to a precision records its own
	// (suite [load] resolve), which wins.
	Resolve float64
	// MaxCV is the robust coefficient of variation (1.4826 × MAD / median)
	// above which a cell is noisy. A scenario is noisy when the median CV of
	// its cells is above it.
	MaxCV float64
	// MinReps is the fewest repetitions behind a cell for any difference to
	// be claimed (at least 2: the test needs a variance on each side).
	MinReps int
	// SlowFirst is how far below the median of the other repetitions the
	// first repetition must be to say the warm-up was not enough (0.05 = 5%).
	SlowFirst float64
	// DriftReps is the fewest repetitions in which a steady rise or fall
	// across repetitions is called drift; the total change must exceed Noise.
	DriftReps int
	// ClientSaturation is the fraction of the client's CPUs the load
	// generator may use before the number describes the client, not the server.
	ClientSaturation float64
	// ServerSaturation is the fraction of the server's CPUs below which the
	// server was not the bottleneck.
	ServerSaturation float64
	// MaxErrorShare is the share of failed or non-2xx requests above which an
	// error finding is an error rather than a warning (0.001 = 0.1%).
	MaxErrorShare float64
	// MinTailSamples is the fewest latency samples that must lie beyond a
	// percentile for it to be reported (p99.9 of 5,000 samples rests on 5).
	MinTailSamples int64
	// SizeSpread is the relative spread of bytes per response across the
	// repetitions of a cell above which the response is said to change.
	SizeSpread float64
	// ForeignLoad is the share of a CPU set's capacity in a window (its
	// CPUs × the window) that processes fairbench did not start may use
	// before the cells measured there are reported (rule cpu-interference).
	// 0.10 is a tenth of each CPU: a compile or an indexer shows, a
	// shell, a logger or a monitoring agent does not.
	ForeignLoad float64
	// Steal is the share of a CPU set's capacity the hypervisor may give
	// to other guests (steal time) before it is reported on its own.
	Steal float64
	// HostSlow is the slowdown of the host speed probe (run.json's
	// host_speed: the same fixed work timed around each turn, against the
	// fastest it ran in the run) from which a turn's cells are reported
	// (rule host-slow); a run that set retake_slow is judged by its own.
	HostSlow float64
}

// DefaultThresholds are the thresholds fairbench uses unless told otherwise.
var DefaultThresholds = Thresholds{
	Alpha:            0.05,
	Confidence:       0.95,
	Noise:            0.02,
	Resolve:          0.10,
	MaxCV:            0.05,
	MinReps:          3,
	SlowFirst:        0.05,
	DriftReps:        4,
	ClientSaturation: 0.9,
	ServerSaturation: 0.5,
	MaxErrorShare:    0.001,
	MinTailSamples:   10,
	SizeSpread:       0.01,
	ForeignLoad:      0.10,
	Steal:            0.05,
	HostSlow:         1.4,
}
