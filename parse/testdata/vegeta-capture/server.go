// Command server is the HTTP server the vegeta captures of
// parse/testdata were taken against (see ../vegeta-README.md). It listens
// on 127.0.0.1 at a port the kernel picks, prints "port N" and serves
// until its stdin closes.
//
//	/         200 "hello world\n"
//	/mixed    by request counter: 0→500, 1→404, 2→302 (to /), 3→200
//	/slow     sleeps 50 ms, then 200
//	/serial   one request at a time, 10 ms each: at most 100 req/s
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var n atomic.Int64
	var one sync.Mutex
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello world\n") })
	mux.HandleFunc("/mixed", func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) % 4 {
		case 0:
			w.WriteHeader(500)
		case 1:
			w.WriteHeader(404)
		case 2:
			http.Redirect(w, r, "/", http.StatusFound)
		default:
			io.WriteString(w, "hello world\n")
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond)
		io.WriteString(w, "slow\n")
	})
	mux.HandleFunc("/serial", func(w http.ResponseWriter, r *http.Request) {
		one.Lock()
		time.Sleep(10 * time.Millisecond)
		one.Unlock()
		io.WriteString(w, "serial\n")
	})
	fmt.Printf("port %d\n", ln.Addr().(*net.TCPAddr).Port)
	go func() { io.Copy(io.Discard, os.Stdin); os.Exit(0) }()
	http.Serve(ln, mux)
}
