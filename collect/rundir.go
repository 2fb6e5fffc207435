package collect

import "github.com/fairbench/fairbench/parse/rundir"

// RunDir is the run directory a collect or a merge writes; package rundir
// owns its layout, its lock and how each file is written.
type RunDir = rundir.Dir

// places are the folders of this machine whose paths c's run.json writes
// portably (rundir.Places): the build scratch folder, the base folder, the
// home and temporary folders.
func (c *collector) places() []rundir.Place { return rundir.Places(c.bins, c.opt.BaseDir) }

// writePortable makes every later write of c's run dir write its paths
// portably (rundir.PortableManifest).
func (c *collector) writePortable() { c.dir.SetPortable(c.places) }
