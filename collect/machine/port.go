package machine

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Ports for targets are taken below the kernel's ephemeral range. A port
// from that range (what binding port 0 gives) can be handed to any outgoing
// connection as its source port between the moment it is found free and the
// moment the target binds it: with load generators and gates running side by
// side, that happened (a target failing with EADDRINUSE). No outgoing
// connection is given a port below the range.

// portSpan is how many ports below the ephemeral range are used.
const portSpan = 12000

var ports struct {
	sync.Mutex
	next, low, high int
}

// freePort returns a port that nothing listens on, below the ephemeral
// range, never the same twice in a row within one process.
func freePort() (int, error) {
	ports.Lock()
	defer ports.Unlock()
	if ports.high == 0 {
		ports.high = ephemeralLow()
		ports.low = max(1024, ports.high-portSpan)
		ports.next = ports.low + rand.IntN(ports.high-ports.low) // processes side by side start apart
	}
	for range ports.high - ports.low {
		port := ports.next
		ports.next++
		if ports.next >= ports.high {
			ports.next = ports.low
		}
		if bindable(port) {
			return port, nil
		}
	}
	return 0, fmt.Errorf("no free port in %d-%d", ports.low, ports.high-1)
}

// bindable reports whether port can be listened on, on every address of
// both families.
func bindable(port int) bool {
	for _, network := range []string{"tcp4", "tcp6"} {
		l, err := net.Listen(network, ":"+strconv.Itoa(port))
		if err != nil {
			if network == "tcp6" && !hasIPv6() {
				continue
			}
			return false
		}
		l.Close()
	}
	return true
}

// hasIPv6 reports whether the machine can listen on IPv6 at all.
func hasIPv6() bool {
	l, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// ephemeralLow is the first port of the kernel's ephemeral range (32768
// when it cannot be read).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	if f := strings.Fields(string(b)); len(f) == 2 {
		if n, err := strconv.Atoi(f[0]); err == nil && n > 1024 {
			return n
		}
	}
	return 32768
}
