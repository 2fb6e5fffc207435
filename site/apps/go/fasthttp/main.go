// Command fasthttp serves the benchmark contract (site/apps/README.md) with
// valyala/fasthttp alone: one RequestHandler that routes by method and path
// (fasthttp has no router), encoding/json, go-playground/validator for the
// validate route and fasthttp.FS for static.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"net"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/valyala/fasthttp"

	"github.com/fairbench/fairbench/site/apps/go/internal/contract"
	"github.com/fairbench/fairbench/site/apps/go/internal/world"
)

var validate = validator.New(validator.WithRequiredStructEnabled())

type server struct {
	db     *world.DB
	static fasthttp.RequestHandler
}

func main() {
	db, err := world.Open(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fs := &fasthttp.FS{
		Root:        contract.StaticDir,
		PathRewrite: fasthttp.NewPathSlashesStripper(1),
	}
	s := &server{db: db, static: fs.NewRequestHandler()}
	// Server.ListenAndServe listens on tcp4 only; "tcp" takes an IPv6 $HOST too.
	ln, err := net.Listen("tcp", contract.Addr())
	if err != nil {
		log.Fatal(err)
	}
	srv := &fasthttp.Server{Handler: s.serve, Name: "fasthttp"}
	log.Fatal(srv.Serve(ln))
}

func (s *server) serve(ctx *fasthttp.RequestCtx) {
	path := string(ctx.Path())
	get, post := ctx.IsGet(), ctx.IsPost()
	switch {
	case get && path == "/":
		text(ctx, fasthttp.StatusOK, contract.Ping)
	case get && strings.HasPrefix(path, "/id/") && !strings.Contains(path[4:], "/"):
		ctx.Response.Header.Set("X-Powered-By", contract.PoweredBy)
		text(ctx, fasthttp.StatusOK, path[4:]+" "+string(ctx.QueryArgs().Peek("name")))
	case post && path == "/json":
		var body any
		if err := json.Unmarshal(ctx.PostBody(), &body); err != nil {
			text(ctx, fasthttp.StatusBadRequest, "invalid json")
			return
		}
		writeJSON(ctx, fasthttp.StatusOK, body)
	case get && path == "/plaintext":
		text(ctx, fasthttp.StatusOK, contract.Plaintext)
	case get && path == "/json":
		writeJSON(ctx, fasthttp.StatusOK, contract.Message{Message: contract.Plaintext})
	case get && strings.HasPrefix(path, "/sum/"):
		a, b, ok := strings.Cut(path[5:], "/")
		if !ok || strings.Contains(b, "/") {
			text(ctx, fasthttp.StatusNotFound, contract.NotFound)
			return
		}
		sum, ok := contract.Sum(a, b)
		if !ok {
			text(ctx, fasthttp.StatusBadRequest, contract.InvalidNumber)
			return
		}
		text(ctx, fasthttp.StatusOK, sum)
	case get && path == "/calc":
		q := ctx.QueryArgs()
		res, ok := contract.Calc(string(q.Peek("a")), string(q.Peek("b")), string(q.Peek("c")), string(q.Peek("d")))
		if !ok {
			text(ctx, fasthttp.StatusBadRequest, contract.InvalidNumber)
			return
		}
		text(ctx, fasthttp.StatusOK, res)
	case post && strings.HasPrefix(path, "/api/users/") && !strings.Contains(path[11:], "/"):
		s.api(ctx, path[11:])
	case post && path == "/validate":
		var p contract.Person
		if err := json.Unmarshal(ctx.PostBody(), &p); err != nil || validate.Struct(&p) != nil {
			ctx.SetStatusCode(fasthttp.StatusBadRequest)
			ctx.SetContentType(contract.ApplicationJSON)
			ctx.SetBodyString(contract.ValidationFailed)
			return
		}
		writeJSON(ctx, fasthttp.StatusOK, p)
	case get && strings.HasPrefix(path, "/static/"):
		s.static(ctx)
	case get && strings.HasPrefix(path, "/db/") && !strings.Contains(path[4:], "/"):
		s.row(ctx, path[4:])
	case get && path == "/db":
		s.list(ctx)
	case post && path == "/db":
		s.insert(ctx)
	default:
		text(ctx, fasthttp.StatusNotFound, contract.NotFound)
	}
}

func (s *server) api(ctx *fasthttp.RequestCtx, param string) {
	id, ok := contract.ParseInt(param)
	if !ok {
		text(ctx, fasthttp.StatusBadRequest, contract.InvalidNumber)
		return
	}
	var order contract.Order
	if err := json.Unmarshal(ctx.PostBody(), &order); err != nil {
		text(ctx, fasthttp.StatusBadRequest, "invalid json")
		return
	}
	requestID := string(ctx.Request.Header.Peek("X-Request-Id"))
	currency := string(ctx.QueryArgs().Peek("currency"))
	writeJSON(ctx, fasthttp.StatusOK, contract.Reshape(id, requestID, currency, &order))
}

func (s *server) row(ctx *fasthttp.RequestCtx, param string) {
	id, ok := contract.ParseInt(param)
	if !ok {
		text(ctx, fasthttp.StatusBadRequest, contract.InvalidNumber)
		return
	}
	row, err := s.db.Get(ctx, id)
	switch {
	case errors.Is(err, world.ErrNoRow):
		text(ctx, fasthttp.StatusNotFound, contract.NotFound)
	case err != nil:
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
	default:
		writeJSON(ctx, fasthttp.StatusOK, row)
	}
}

func (s *server) list(ctx *fasthttp.RequestCtx) {
	q := ctx.QueryArgs()
	offset, limit, ok := contract.Page(string(q.Peek("page")), string(q.Peek("size")))
	if !ok {
		text(ctx, fasthttp.StatusBadRequest, contract.InvalidNumber)
		return
	}
	rows, err := s.db.List(ctx, offset, limit)
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(ctx, fasthttp.StatusOK, rows)
}

func (s *server) insert(ctx *fasthttp.RequestCtx) {
	var nr contract.NewRow
	if err := json.Unmarshal(ctx.PostBody(), &nr); err != nil || !nr.Valid() {
		text(ctx, fasthttp.StatusBadRequest, contract.InvalidNumber)
		return
	}
	row, err := s.db.Insert(ctx, *nr.RandomNumber)
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(ctx, fasthttp.StatusCreated, row)
}

func text(ctx *fasthttp.RequestCtx, status int, s string) {
	ctx.SetStatusCode(status)
	ctx.SetContentType(contract.TextPlain)
	ctx.SetBodyString(s)
}

func writeJSON(ctx *fasthttp.RequestCtx, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	ctx.SetStatusCode(status)
	ctx.SetContentType(contract.ApplicationJSON)
	ctx.SetBody(b)
}
