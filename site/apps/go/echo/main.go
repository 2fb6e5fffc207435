// Command echo serves the benchmark contract (site/apps/README.md) with
// labstack/echo: echo routes, c.Bind and c.Validate with go-playground/validator
// (the validator echo's guide plugs in), and e.Static.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"net/http"

	"github.com/go-playground/validator/v10"
	"github.com/labstack/echo/v4"

	"github.com/fairbench/fairbench/site/apps/go/internal/contract"
	"github.com/fairbench/fairbench/site/apps/go/internal/world"
)

// structValidator is echo's Validator backed by go-playground/validator.
type structValidator struct{ v *validator.Validate }

func (s structValidator) Validate(i any) error { return s.v.Struct(i) }

// compactJSON is echo's JSONSerializer with json.Marshal: echo's default
// encoder ends every body with a newline, which the contract does not allow.
type compactJSON struct{ echo.DefaultJSONSerializer }

func (compactJSON) Serialize(c echo.Context, i any, indent string) error {
	b, err := json.Marshal(i)
	if err != nil {
		return err
	}
	_, err = c.Response().Write(b)
	return err
}

func main() {
	db, err := world.Open(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Validator = structValidator{validator.New(validator.WithRequiredStructEnabled())}
	e.JSONSerializer = compactJSON{}
	e.GET("/", func(c echo.Context) error {
		return c.String(http.StatusOK, contract.Ping)
	})
	e.GET("/id/:id", func(c echo.Context) error {
		c.Response().Header().Set("X-Powered-By", contract.PoweredBy)
		return c.String(http.StatusOK, c.Param("id")+" "+c.QueryParam("name"))
	})
	e.POST("/json", func(c echo.Context) error {
		var body any
		if err := c.Bind(&body); err != nil {
			return c.String(http.StatusBadRequest, "invalid json")
		}
		return c.JSON(http.StatusOK, body)
	})
	e.GET("/plaintext", func(c echo.Context) error {
		return c.String(http.StatusOK, contract.Plaintext)
	})
	e.GET("/json", func(c echo.Context) error {
		return c.JSON(http.StatusOK, contract.Message{Message: contract.Plaintext})
	})
	e.GET("/sum/:a/:b", func(c echo.Context) error {
		sum, ok := contract.Sum(c.Param("a"), c.Param("b"))
		if !ok {
			return c.String(http.StatusBadRequest, contract.InvalidNumber)
		}
		return c.String(http.StatusOK, sum)
	})
	e.GET("/calc", func(c echo.Context) error {
		res, ok := contract.Calc(c.QueryParam("a"), c.QueryParam("b"), c.QueryParam("c"), c.QueryParam("d"))
		if !ok {
			return c.String(http.StatusBadRequest, contract.InvalidNumber)
		}
		return c.String(http.StatusOK, res)
	})
	e.POST("/api/users/:id", func(c echo.Context) error {
		id, ok := contract.ParseInt(c.Param("id"))
		if !ok {
			return c.String(http.StatusBadRequest, contract.InvalidNumber)
		}
		var order contract.Order
		if err := (&echo.DefaultBinder{}).BindBody(c, &order); err != nil {
			return c.String(http.StatusBadRequest, "invalid json")
		}
		return c.JSON(http.StatusOK, contract.Reshape(id, c.Request().Header.Get("X-Request-Id"), c.QueryParam("currency"), &order))
	})
	e.POST("/validate", func(c echo.Context) error {
		var p contract.Person
		if err := c.Bind(&p); err != nil {
			return c.Blob(http.StatusBadRequest, contract.ApplicationJSON, []byte(contract.ValidationFailed))
		}
		if err := c.Validate(&p); err != nil {
			return c.Blob(http.StatusBadRequest, contract.ApplicationJSON, []byte(contract.ValidationFailed))
		}
		return c.JSON(http.StatusOK, p)
	})
	e.Static("/static", contract.StaticDir)
	e.GET("/db/:id", func(c echo.Context) error {
		id, ok := contract.ParseInt(c.Param("id"))
		if !ok {
			return c.String(http.StatusBadRequest, contract.InvalidNumber)
		}
		row, err := db.Get(c.Request().Context(), id)
		switch {
		case errors.Is(err, world.ErrNoRow):
			return c.String(http.StatusNotFound, contract.NotFound)
		case err != nil:
			return err
		}
		return c.JSON(http.StatusOK, row)
	})
	e.GET("/db", func(c echo.Context) error {
		offset, limit, ok := contract.Page(c.QueryParam("page"), c.QueryParam("size"))
		if !ok {
			return c.String(http.StatusBadRequest, contract.InvalidNumber)
		}
		rows, err := db.List(c.Request().Context(), offset, limit)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, rows)
	})
	e.POST("/db", func(c echo.Context) error {
		var nr contract.NewRow
		if err := c.Bind(&nr); err != nil || !nr.Valid() {
			return c.String(http.StatusBadRequest, contract.InvalidNumber)
		}
		row, err := db.Insert(c.Request().Context(), *nr.RandomNumber)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusCreated, row)
	})
	log.Fatal(e.Start(contract.Addr()))
}
