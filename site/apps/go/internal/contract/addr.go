package contract

import (
	"net"
	"os"
)

// Addr is the address a target listens on: $HOST, or 127.0.0.1 when unset or
// empty, and $PORT, or 3000. The host is joined with net.JoinHostPort, so an
// IPv6 address such as ::1 comes out bracketed ([::1]:3000). The collector
// sets HOST to the address the load generator reaches: loopback when both
// run on one machine, the server host's address when they do not. There is
// no wildcard default: a target never listens on every interface unless
// HOST says so.
func Addr() string {
	host := os.Getenv("HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	port := os.Getenv("PORT")
	if port == "" {
		port = "3000"
	}
	return net.JoinHostPort(host, port)
}
