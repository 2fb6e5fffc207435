// Command chi serves the benchmark contract (site/apps/README.md) with
// go-chi/chi: chi routes and URL parameters, net/http underneath,
// go-playground/validator for the validate route, http.FileServer for static.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http"

	"github.com/go-chi/chi/v5"
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
	r := chi.NewRouter()
	r.Get("/", func(w http.ResponseWriter, r *http.Request) {
		text(w, http.StatusOK, contract.Ping)
	})
	r.Get("/id/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Powered-By", contract.PoweredBy)
		text(w, http.StatusOK, chi.URLParam(r, "id")+" "+r.URL.Query().Get("name"))
	})
	r.Post("/json", func(w http.ResponseWriter, r *http.Request) {
		var body any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			text(w, http.StatusBadRequest, "invalid json")
			return
		}
		writeJSON(w, http.StatusOK, body)
	})
	r.Get("/plaintext", func(w http.ResponseWriter, r *http.Request) {
		text(w, http.StatusOK, contract.Plaintext)
	})
	r.Get("/json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, contract.Message{Message: contract.Plaintext})
	})
	r.Get("/sum/{a}/{b}", func(w http.ResponseWriter, r *http.Request) {
		sum, ok := contract.Sum(chi.URLParam(r, "a"), chi.URLParam(r, "b"))
		if !ok {
			text(w, http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		text(w, http.StatusOK, sum)
	})
	r.Get("/calc", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		res, ok := contract.Calc(q.Get("a"), q.Get("b"), q.Get("c"), q.Get("d"))
		if !ok {
			text(w, http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		text(w, http.StatusOK, res)
	})
	r.Post("/api/users/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, ok := contract.ParseInt(chi.URLParam(r, "id"))
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
	r.Post("/validate", func(w http.ResponseWriter, r *http.Request) {
		var p contract.Person
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil || validate.Struct(&p) != nil {
			w.Header().Set("Content-Type", contract.ApplicationJSON)
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, contract.ValidationFailed)
			return
		}
		writeJSON(w, http.StatusOK, p)
	})
	// chi's own example (_examples/fileserver) mounts http.FileServer under a prefix.
	r.Handle("/static/*", http.StripPrefix("/static/", http.FileServer(http.Dir(contract.StaticDir))))
	r.Get("/db/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, ok := contract.ParseInt(chi.URLParam(r, "id"))
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
	r.Get("/db", func(w http.ResponseWriter, r *http.Request) {
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
	r.Post("/db", func(w http.ResponseWriter, r *http.Request) {
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
	log.Fatal(http.ListenAndServe(contract.Addr(), r))
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
	w.WriteHeader(status)
	w.Write(b)
}
