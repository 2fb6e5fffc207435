package suite

// Service is a real service the targets need, such as PostgreSQL from
// Debian's postgresql package. Services start, in suite order, before the
// first target is built, and stop after the last measurement; each one's
// version is asked of its binary and recorded in run.json.
//
// Its argvs may name {port} (its port), {dir} (a scratch folder made for
// it, owned by User, removed after the run) and {bin}. Targets reach it
// through {<name>.port} in their env and start argv.
type Service struct {
	Name string `toml:"name"`
	// Dir is the working directory of every argv, relative to the base.
	Dir string `toml:"dir"`
	// User runs every argv as this user when fairbench runs as root
	// (PostgreSQL refuses to run as root).
	User string `toml:"user"`
	// Version is the argv whose first line of output is the version.
	Version []string `toml:"version"`
	// Init runs once before Start, e.g. initdb.
	Init []string `toml:"init"`
	// Start is the long-running process.
	Start []string `toml:"start"`
	// Ready is polled until it exits 0, e.g. pg_isready. Without it the
	// service is ready when its port takes a TCP connection.
	Ready []string `toml:"ready"`
	// Seed runs once the service is ready, e.g. psql -f seed.sql.
	Seed []string `toml:"seed"`
	// Reset takes the service back to its seeded state, e.g. psql -f
	// reset.sql; it runs before each gate run, warm-up and measurement of a
	// scenario that names the service in its reset key (reset.go).
	Reset []string `toml:"reset"`
	// Port is passed as {port} and $PORT; 0 picks a free one.
	Port int               `toml:"port"`
	Env  map[string]string `toml:"env"`
	// ReadyTimeout bounds the wait for Ready; 0 is 2 minutes.
	ReadyTimeout Duration `toml:"ready_timeout"`
}
