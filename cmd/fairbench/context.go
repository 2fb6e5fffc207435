package main

import "context"

// interruptible returns a context cancelled when the process is asked to stop.
func (e *env) interruptible() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	if e.interrupted != nil {
		go func() {
			select {
			case <-e.interrupted:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}
