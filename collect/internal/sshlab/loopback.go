package sshlab

// Without namespaces every host is an sshd on an address of its own in
// 127.0.0.0/8 (Linux answers on all of it with no setup), on a free port,
// since other labs may use the same addresses. Nothing separates the hosts
// but the address: a listener on 0.0.0.0 is on every host.

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
)

// placeLoopback gives the i-th host 127.0.0.(i+2) and a port free there.
func placeLoopback(hosts []*host) error {
	for i, h := range hosts {
		addr := netip.AddrFrom4([4]byte{127, 0, 0, byte(i + 2)})
		port, err := freePort(addr)
		if err != nil {
			return err
		}
		h.Addr, h.Port, h.NetNS = addr.String(), port, ""
	}
	return nil
}

// freePort asks the kernel for a port free on addr. Another process may
// take it before sshd binds it; startAll tries again then.
func freePort(addr netip.Addr) (int, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(addr.String(), "0"))
	if err != nil {
		return 0, fmt.Errorf("find a free port on %s: %w", addr, err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return strconv.Atoi(port)
}
