package collect

import "time"

// SetToolGrace shortens how long a load tool may overrun its window, for
// tests, and returns the function that restores it.
func SetToolGrace(d time.Duration) (restore func()) {
	old := toolGrace
	toolGrace = d
	return func() { toolGrace = old }
}
