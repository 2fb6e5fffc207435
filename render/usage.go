package render

import (
	"errors"
	"fmt"
)

// ErrUsage is wrapped by every error that comes of how render was asked
// rather than of what it read or wrote: a refused out folder, an out folder
// another render holds, an unknown theme, a README it cannot use, an input
// with nothing to render. The command line turns it into exit status 2;
// the message is the wrapped error's alone.
var ErrUsage = errors.New("bad usage")

// usageError marks err as ErrUsage without changing what it says.
type usageError struct{ err error }

func (e usageError) Error() string   { return e.err.Error() }
func (e usageError) Unwrap() []error { return []error{e.err, ErrUsage} }

// usagef is fmt.Errorf marked as ErrUsage.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}
