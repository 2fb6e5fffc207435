package sshlab

// The namespaced lab, for hosts h1, h2, …:
//
//	root namespace          namespace <id>            namespace <id>-<name>
//	fbl-XXYY 10.X.Y.1/24 ── up0 ┐
//	                            br0 ── h1 ───────────── eth0 10.X.Y.2/24
//	                                ── h2 ───────────── eth0 10.X.Y.3/24 (next host)
//
// The bridge lives in a namespace of its own, not in the root one: there
// the machine's firewall would see the bridged host-to-host traffic (with
// br_netfilter loaded, as Docker leaves it, a FORWARD policy of DROP cuts
// it), while a fresh namespace has no rules. The test process reaches the
// hosts through fbl-XXYY, the only link the lab adds to the root namespace;
// its name is derived from the subnet, so creating it claims the subnet
// atomically against other labs. Deleting fbl-XXYY and the namespaces
// removes everything.

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// network is a lab's namespaces and links.
type network struct {
	lan    string // namespace holding the bridge
	uplink string // veth in the root namespace, .1 of the subnet
	subnet netip.Prefix
	made   []string // namespaces made, to delete
}

// newNetwork makes the namespaces and links for hosts and sets their Addr,
// Port and NetNS. On failure it removes what it made.
func newNetwork(id string, hosts []*host) (n *network, err error) {
	if os.Geteuid() != 0 {
		return nil, errors.New("not root")
	}
	n = &network{lan: id}
	defer func() {
		if err != nil {
			n.delete()
			n = nil
		}
	}()
	if err := n.addNetNS(n.lan); err != nil {
		return nil, err
	}
	if err := n.inLAN("link", "add", "br0", "type", "bridge"); err != nil {
		return nil, err
	}
	if err := n.inLAN("link", "set", "br0", "up"); err != nil {
		return nil, err
	}
	if err := n.claimSubnet(); err != nil {
		return nil, err
	}
	for i, h := range hosts {
		if err := n.addHost(h, i); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (n *network) addNetNS(name string) error {
	if err := ip("netns", "add", name); err != nil {
		return err
	}
	n.made = append(n.made, name)
	return nil
}

// inLAN runs ip with args in the bridge's namespace.
func (n *network) inLAN(args ...string) error {
	return ip(append([]string{"-n", n.lan}, args...)...)
}

// claimSubnet picks a 10.X.Y.0/24 that no address or route of the machine
// overlaps and whose uplink no other lab has made, and links the bridge to
// the root namespace through it.
func (n *network) claimSubnet() error {
	start := os.Getpid() * 131
	for i := range 64 {
		k := (start + i*257) % (50 * 256)
		subnet := netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(200 + k/256), byte(k % 256), 0}), 24)
		taken, err := inUse()
		if err != nil {
			return err
		}
		if overlaps(subnet, taken) {
			continue
		}
		b := subnet.Addr().As4()
		uplink := fmt.Sprintf("fbl-%02x%02x", b[1], b[2])
		err = ip("link", "add", uplink, "type", "veth", "peer", "name", "up0", "netns", n.lan)
		if err != nil && strings.Contains(err.Error(), "exists") {
			continue // another lab's
		}
		if err != nil {
			return err
		}
		n.uplink, n.subnet = uplink, subnet
		if err := ip("addr", "add", n.addr(1).String()+"/24", "dev", uplink); err != nil {
			return err
		}
		if err := ip("link", "set", uplink, "up"); err != nil {
			return err
		}
		return n.inLAN("link", "set", "up0", "master", "br0", "up")
	}
	return errors.New("no free 10.200-249.Y.0/24 subnet for the lab")
}

// addr is the subnet's address ending in last.
func (n *network) addr(last int) netip.Addr {
	b := n.subnet.Addr().As4()
	b[3] = byte(last)
	return netip.AddrFrom4(b)
}

// addHost makes the i-th host's namespace with address .i+2 and links it to
// the bridge.
func (n *network) addHost(h *host, i int) error {
	ns := n.lan + "-" + h.Name
	if err := n.addNetNS(ns); err != nil {
		return err
	}
	link := "h" + strconv.Itoa(i+1)
	if err := n.inLAN("link", "add", link, "type", "veth", "peer", "name", "eth0", "netns", ns); err != nil {
		return err
	}
	if err := n.inLAN("link", "set", link, "master", "br0", "up"); err != nil {
		return err
	}
	addr := n.addr(i + 2)
	for _, args := range [][]string{
		{"link", "set", "lo", "up"},
		{"addr", "add", addr.String() + "/24", "dev", "eth0"},
		{"link", "set", "eth0", "up"},
	} {
		if err := ip(append([]string{"-n", ns}, args...)...); err != nil {
			return err
		}
	}
	h.Addr, h.Port, h.NetNS, h.link = addr.String(), 22, ns, link
	return nil
}

// setLink sets a host's bridge port up or down: down is a pulled cable,
// the host keeps its address and routes and its packets go nowhere.
func (n *network) setLink(h *host, state string) error {
	return n.inLAN("link", "set", h.link, state)
}

// delete removes the uplink and every namespace made, and with them every
// link of the lab. Processes in the namespaces must be gone first.
func (n *network) delete() []error {
	var errs []error
	if n.uplink != "" {
		if err := ip("link", "del", n.uplink); err != nil && !strings.Contains(err.Error(), "Cannot find device") {
			errs = append(errs, err)
		}
	}
	for i := len(n.made) - 1; i >= 0; i-- {
		if err := ip("netns", "del", n.made[i]); err != nil {
			errs = append(errs, err)
		}
	}
	n.made = nil
	return errs
}

// pids are the processes in the named namespace.
func netnsPIDs(ns string) ([]int, error) {
	out, err := exec.Command("ip", "netns", "pids", ns).Output()
	if err != nil {
		return nil, fmt.Errorf("ip netns pids %s: %w", ns, err)
	}
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if p, err := strconv.Atoi(f); err == nil {
			pids = append(pids, p)
		}
	}
	return pids, nil
}

// inUse are the IPv4 prefixes of the root namespace's addresses and routes,
// in every table, but for default routes.
func inUse() ([]netip.Prefix, error) {
	addrs, err := exec.Command("ip", "-4", "-o", "addr", "show").Output()
	if err != nil {
		return nil, fmt.Errorf("ip -4 addr: %w", err)
	}
	routes, err := exec.Command("ip", "-4", "route", "show", "table", "all").Output()
	if err != nil {
		return nil, fmt.Errorf("ip -4 route: %w", err)
	}
	var taken []netip.Prefix
	for _, line := range strings.Split(string(addrs), "\n") {
		f := strings.Fields(line)
		for i := 0; i+1 < len(f); i++ {
			if f[i] == "inet" {
				if p, err := netip.ParsePrefix(f[i+1]); err == nil {
					taken = append(taken, p.Masked())
				}
			}
		}
	}
	for _, line := range strings.Split(string(routes), "\n") {
		f := strings.Fields(line)
		if len(f) > 1 && routeTypes[f[0]] {
			f = f[1:]
		}
		if len(f) == 0 || f[0] == "default" {
			continue
		}
		if p, err := parsePrefix(f[0]); err == nil && p.Bits() > 0 {
			taken = append(taken, p)
		}
	}
	return taken, nil
}

// routeTypes are the words ip route may put before a route's destination.
var routeTypes = map[string]bool{
	"unicast": true, "local": true, "broadcast": true, "multicast": true, "anycast": true,
	"blackhole": true, "unreachable": true, "prohibit": true, "throw": true, "nat": true,
}

// parsePrefix reads a.b.c.d/n or a bare address, a /32.
func parsePrefix(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		return p.Masked(), err
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return netip.PrefixFrom(a, a.BitLen()), nil
}

func overlaps(p netip.Prefix, taken []netip.Prefix) bool {
	for _, q := range taken {
		if q.Addr().Is4() && p.Overlaps(q) {
			return true
		}
	}
	return false
}

// ip runs ip(8) with args; its error carries ip's words.
func ip(args ...string) error {
	var stderr bytes.Buffer
	cmd := exec.Command("ip", args...)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("ip %s: %w: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return nil
}
