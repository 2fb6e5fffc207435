// Command stdlib serves the benchmark contract (site/apps/README.md) with
// net/http alone: ServeMux patterns, encoding/json, http.FileServer.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http"
	"strconv"

	"github.com/go-playground/validator/v10"

	"github.com/fairbench/fairbench/site/apps/go/internal/contract"
	"github.com/fairbench/fairbench/site/apps/go/internal/world"
)

var validate = validator.New(validator.WithRequiredStructEnabled())

func main() {
	db, err := world.Open(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		text(w, http.StatusOK, contract.Ping)
	})
	mux.HandleFunc("GET /id/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Powered-By", contract.PoweredBy)
		text(w, http.StatusOK, r.PathValue("id")+" "+r.URL.Query().Get("name"))
	})
	mux.HandleFunc("POST /json", func(w http.ResponseWriter, r *http.Request) {
		var body any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			text(w, http.StatusBadRequest, "invalid json")
			return
		}
		writeJSON(w, http.StatusOK, body)
	})
	mux.HandleFunc("GET /plaintext", func(w http.ResponseWriter, r *http.Request) {
		text(w, http.StatusOK, contract.Plaintext)
	})
	mux.HandleFunc("GET /json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, contract.Message{Message: contract.Plaintext})
	})
	mux.HandleFunc("GET /sum/{a}/{b}", func(w http.ResponseWriter, r *http.Request) {
		sum, ok := contract.Sum(r.PathValue("a"), r.PathValue("b"))
		if !ok {
			text(w, http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		text(w, http.StatusOK, sum)
	})
	mux.HandleFunc("GET /calc", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		res, ok := contract.Calc(q.Get("a"), q.Get("b"), q.Get("c"), q.Get("d"))
		if !ok {
			text(w, http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		text(w, http.StatusOK, res)
	})
	mux.HandleFunc("POST /api/users/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, ok := contract.ParseInt(r.PathValue("id"))
		if !ok {
			text(w, http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		var order contract.Order
		if err := json.NewDecoder(r.Body).Decode(&order); err != nil {
			text(w, http.StatusBadRequest, "invalid json")
			return
		}
		writeJSON(w, http.StatusOK, contract.Reshape(id, r.Header.Get("X-Request-Id"), r.URL.Query().Get("currency"), &order))
	})
	mux.HandleFunc("POST /validate", func(w http.ResponseWriter, r *http.Request) {
		var p contract.Person
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil || validate.Struct(&p) != nil {
			w.Header().Set("Content-Type", contract.ApplicationJSON)
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, contract.ValidationFailed)
			return
		}
		writeJSON(w, http.StatusOK, p)
	})
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServer(http.Dir(contract.StaticDir))))
	mux.HandleFunc("GET /db/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, ok := contract.ParseInt(r.PathValue("id"))
		if !ok {
			text(w, http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		row, err := db.Get(r.Context(), id)
		switch {
		case errors.Is(err, world.ErrNoRow):
			text(w, http.StatusNotFound, contract.NotFound)
		case err != nil:
			text(w, http.StatusInternalServerError, err.Error())
		default:
			writeJSON(w, http.StatusOK, row)
		}
	})
	mux.HandleFunc("GET /db", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		offset, limit, ok := contract.Page(q.Get("page"), q.Get("size"))
		if !ok {
			text(w, http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		rows, err := db.List(r.Context(), offset, limit)
		if err != nil {
			text(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, rows)
	})
	mux.HandleFunc("POST /db", func(w http.ResponseWriter, r *http.Request) {
		var nr contract.NewRow
		if err := json.NewDecoder(r.Body).Decode(&nr); err != nil || !nr.Valid() {
			text(w, http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		row, err := db.Insert(r.Context(), *nr.RandomNumber)
		if err != nil {
			text(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusCreated, row)
	})
	log.Fatal(http.ListenAndServe(contract.Addr(), mux))
}

func text(w http.ResponseWriter, status int, s string) {
	w.Header().Set("Content-Type", contract.TextPlain)
	w.WriteHeader(status)
	io.WriteString(w, s)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		text(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", contract.ApplicationJSON)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}
