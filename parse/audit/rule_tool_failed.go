package audit

import (
	"fmt"
	"path/filepath"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleToolFailed fires for a measurement run.json records as failed: the
// tool exited non-zero or the collector recorded an error.
const RuleToolFailed = "tool-failed"

// toolFailedFindings reports the failed tool runs run.json records; one
// that was taken again is a note, its failed dump kept and not counted.
func toolFailedFindings(set *parse.Set) []Finding {
	var fs []Finding
	for _, r := range set.Runs {
		retaken := map[verdict.RecordKey]bool{} // a latency or sweep point is not a retake of the throughput cell
		for _, mr := range r.Measurements {
			if mr.ExitStatus == 0 && mr.Error == "" {
				retaken[verdict.KeyOfRecord(r.ID, &mr)] = true
			}
		}
		for _, mr := range r.Measurements {
			if mr.ExitStatus == 0 && mr.Error == "" || mr.HostSpeed != nil && mr.HostSpeed.Dropped {
				continue // a turn dropped for a slow host: host-slow reports it
			}
			f := Finding{Rule: RuleToolFailed, Level: LevelError, Run: r.ID, Target: mr.Target, Scenario: mr.Scenario,
				Message: fmt.Sprintf("%s rep %d%s: %s exited with status %d (%s): its numbers, if any, are not a full measurement and are not counted; read the dump's .stderr and run again (fairbench collect -resume)",
					warmupLabel(mr.Warmup), mr.Rep, phasePoint(&mr), mr.Tool, mr.ExitStatus, mr.Error),
				Dumps: []string{filepath.Join(r.Path, filepath.FromSlash(mr.Dump))}}
			if retaken[verdict.KeyOfRecord(r.ID, &mr)] {
				f.Level = LevelInfo
				f.Message = fmt.Sprintf("%s rep %d%s failed once (%s exited with status %d: %s) and was taken again; the failed dump is kept and not counted",
					warmupLabel(mr.Warmup), mr.Rep, phasePoint(&mr), mr.Tool, mr.ExitStatus, mr.Error)
			}
			fs = append(fs, f)
		}
	}
	return fs
}

func warmupLabel(w bool) string {
	if w {
		return "warm-up"
	}
	return "measurement"
}
