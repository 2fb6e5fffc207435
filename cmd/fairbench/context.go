package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// interruptible returns a context cancelled on the first SIGINT or SIGTERM,
// for a command that must stop its work in order (end the processes it
// started, mark a run interrupted). Signals are caught only from here until
// cancel is called: a second signal, and any signal after cancel, ends the
// process at once, as it does for every command that never asks.
func (e *env) interruptible() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	if !e.signals {
		return ctx, cancel
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sig:
			signal.Stop(sig) // the second signal takes the default path
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		cancel()
	}
}
