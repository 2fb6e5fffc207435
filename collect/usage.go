package collect

import "errors"

// ErrUsage is wrapped by Run's error when the run was asked for something
// it cannot do as given, found before anything started: an -only name the
// suite lacks, a shard count the suite cannot fill, a run dir to resume
// that cannot be read, an [isolation] CPU list this machine cannot take.
// The caller owns the exit status; fairbench exits 2 on it, as on any bad
// usage or unreadable input.
var ErrUsage = errors.New("bad usage")

// usageError marks err as ErrUsage without changing its text.
type usageError struct{ err error }

func (e usageError) Error() string        { return e.err.Error() }
func (e usageError) Unwrap() error        { return e.err }
func (e usageError) Is(target error) bool { return target == ErrUsage }

// asUsage marks a non-nil err as bad usage.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}
