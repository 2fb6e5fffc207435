package machine

import (
	"net"
	"strconv"
	"testing"
)

// TestFreePortIsBelowTheEphemeralRange: a port handed to a target is one no
// outgoing connection can take, and is free.
func TestFreePortIsBelowTheEphemeralRange(t *testing.T) {
	low := ephemeralLow()
	seen := map[int]bool{}
	for range 50 {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		if port >= low || port < 1024 {
			t.Fatalf("port %d is not below the ephemeral range (from %d)", port, low)
		}
		if seen[port] {
			t.Fatalf("port %d handed out twice", port)
		}
		seen[port] = true
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			t.Fatalf("port %d was handed out but cannot be bound: %v", port, err)
		}
		defer l.Close()
	}
	// A port in use is skipped.
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	held, err := net.Listen("tcp", ":"+strconv.Itoa(port+1))
	if err == nil {
		defer held.Close()
		if next, _ := freePort(); next == port+1 {
			t.Fatalf("port %d is held but was handed out", next)
		}
	}
}
