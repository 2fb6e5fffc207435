package collect

// binDir is the scratch folder of t's build outputs, {bin}, on the server
// machine.
func (c *collector) binDir(t Target) string {
	return c.server.path("bin/" + t.Name)
}

// dirOn is where t's files are on the server machine: its remote_dir, or
// where they are copied to (here: where they are).
func (c *collector) dirOn(t Target) string {
	if t.RemoteDir != "" {
		return c.server.path(t.RemoteDir)
	}
	return c.server.mirror(c.targetDir(t), "targets/"+t.Name)
}
