// Command hiserver answers GET / with the bytes of $BODY, for gate tests.
package main

import (
	"io"
	"log"
	"net/http"
	"os"
)

func main() {
	body := os.Getenv("BODY")
	http.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, body)
	})
	log.Fatal(http.ListenAndServe("127.0.0.1:"+os.Getenv("PORT"), nil))
}
