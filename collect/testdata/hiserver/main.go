// Command hiserver answers GET / with the bytes of $BODY, for gate tests,
// GET /ip with the caller's address, and POST /echo with the request body. It listens on $HOST (default
// 127.0.0.1) and $PORT.
//
// $FAULT names a file that, when it exists at startup, injects a fault:
//
//	exit-after N    exit with status 3 once N requests are answered
//	never-ready     print a line and never listen
//	slow-start D    wait D (a Go duration) before listening
//
// Tests remove the file to heal the target before -resume.
package main

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"
)

func main() {
	body := os.Getenv("BODY")
	var exitAfter int64 = -1
	if b, err := os.ReadFile(os.Getenv("FAULT")); os.Getenv("FAULT") != "" && err == nil {
		f := strings.Fields(string(b))
		switch {
		case len(f) == 2 && f[0] == "exit-after":
			fmt.Sscan(f[1], &exitAfter)
		case len(f) == 1 && f[0] == "never-ready":
			fmt.Println("hiserver: waiting for a database that never comes")
			select {}
		case len(f) == 2 && f[0] == "slow-start":
			d, _ := time.ParseDuration(f[1])
			time.Sleep(d)
		}
	}
	var answered atomic.Int64
	http.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, body)
		if n := answered.Add(1); exitAfter >= 0 && n >= exitAfter {
			fmt.Fprintf(os.Stderr, "hiserver: injected crash after %d requests\n", n)
			os.Exit(3)
		}
	})
	// GET /ip answers the caller's address: the gate from the client host
	// and the gate from the collector's machine see different ones.
	http.HandleFunc("GET /ip", func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		io.WriteString(w, host)
	})
	http.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(w, r.Body)
	})
	host := os.Getenv("HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	log.Fatal(http.ListenAndServe(net.JoinHostPort(host, os.Getenv("PORT")), nil))
}
