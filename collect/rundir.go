package collect

import "github.com/fairbench/fairbench/parse/rundir"

// RunDir is the run directory a collect or a merge writes; package rundir
// owns its layout, its lock and how each file is written.
type RunDir = rundir.Dir
