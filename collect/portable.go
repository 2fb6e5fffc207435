package collect

import "github.com/fairbench/fairbench/parse/rundir"

// places are the folders of this machine whose paths c's run.json writes
// portably (rundir.Places): the build scratch folder, the base folder, the
// home and temporary folders.
func (c *collector) places() []rundir.Place { return rundir.Places(c.bins, c.opt.BaseDir) }

// writePortable makes every later write of c's run dir write its paths
// portably (rundir.PortableManifest).
func (c *collector) writePortable() { c.dir.SetPortable(c.places) }
