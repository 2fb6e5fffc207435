// Command fiber serves the benchmark contract (site/apps/README.md) with
// gofiber/fiber v3 (fasthttp underneath): fiber routes, c.Bind().JSON with
// the app's StructValidator (go-playground/validator, as fiber's docs show)
// and the static middleware.
package main

import (
	"context"
	"errors"
	"log"

	"github.com/go-playground/validator/v10"
	"github.com/gofiber/fiber/v3"
	"github.com/gofiber/fiber/v3/middleware/static"

	"github.com/fairbench/fairbench/site/apps/go/internal/contract"
	"github.com/fairbench/fairbench/site/apps/go/internal/world"
)

// structValidator is fiber's StructValidator backed by go-playground/validator.
type structValidator struct{ v *validator.Validate }

func (s structValidator) Validate(out any) error { return s.v.Struct(out) }

func main() {
	db, err := world.Open(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	app := fiber.New(fiber.Config{
		StructValidator: structValidator{validator.New(validator.WithRequiredStructEnabled())},
	})
	app.Get("/", func(c fiber.Ctx) error {
		return c.SendString(contract.Ping)
	})
	app.Get("/id/:id", func(c fiber.Ctx) error {
		c.Set("X-Powered-By", contract.PoweredBy)
		return c.SendString(c.Params("id") + " " + c.Query("name"))
	})
	app.Post("/json", func(c fiber.Ctx) error {
		var body any
		if err := c.Bind().JSON(&body); err != nil {
			return c.Status(fiber.StatusBadRequest).SendString("invalid json")
		}
		return c.JSON(body)
	})
	app.Get("/plaintext", func(c fiber.Ctx) error {
		return c.SendString(contract.Plaintext)
	})
	app.Get("/json", func(c fiber.Ctx) error {
		return c.JSON(contract.Message{Message: contract.Plaintext})
	})
	app.Get("/sum/:a/:b", func(c fiber.Ctx) error {
		sum, ok := contract.Sum(c.Params("a"), c.Params("b"))
		if !ok {
			return c.Status(fiber.StatusBadRequest).SendString(contract.InvalidNumber)
		}
		return c.SendString(sum)
	})
	app.Get("/calc", func(c fiber.Ctx) error {
		res, ok := contract.Calc(c.Query("a"), c.Query("b"), c.Query("c"), c.Query("d"))
		if !ok {
			return c.Status(fiber.StatusBadRequest).SendString(contract.InvalidNumber)
		}
		return c.SendString(res)
	})
	app.Post("/api/users/:id", func(c fiber.Ctx) error {
		id, ok := contract.ParseInt(c.Params("id"))
		if !ok {
			return c.Status(fiber.StatusBadRequest).SendString(contract.InvalidNumber)
		}
		var order contract.Order
		if err := c.Bind().JSON(&order); err != nil {
			return c.Status(fiber.StatusBadRequest).SendString("invalid json")
		}
		return c.JSON(contract.Reshape(id, c.Get("X-Request-Id"), c.Query("currency"), &order))
	})
	app.Post("/validate", func(c fiber.Ctx) error {
		var p contract.Person
		if err := c.Bind().JSON(&p); err != nil {
			c.Set(fiber.HeaderContentType, contract.ApplicationJSON)
			return c.Status(fiber.StatusBadRequest).SendString(contract.ValidationFailed)
		}
		return c.JSON(p)
	})
	app.Get("/static/*", static.New(contract.StaticDir))
	app.Get("/db/:id", func(c fiber.Ctx) error {
		id, ok := contract.ParseInt(c.Params("id"))
		if !ok {
			return c.Status(fiber.StatusBadRequest).SendString(contract.InvalidNumber)
		}
		row, err := db.Get(c.Context(), id)
		switch {
		case errors.Is(err, world.ErrNoRow):
			return c.Status(fiber.StatusNotFound).SendString(contract.NotFound)
		case err != nil:
			return err
		}
		return c.JSON(row)
	})
	app.Get("/db", func(c fiber.Ctx) error {
		offset, limit, ok := contract.Page(c.Query("page"), c.Query("size"))
		if !ok {
			return c.Status(fiber.StatusBadRequest).SendString(contract.InvalidNumber)
		}
		rows, err := db.List(c.Context(), offset, limit)
		if err != nil {
			return err
		}
		return c.JSON(rows)
	})
	app.Post("/db", func(c fiber.Ctx) error {
		var nr contract.NewRow
		if err := c.Bind().JSON(&nr); err != nil || !nr.Valid() {
			return c.Status(fiber.StatusBadRequest).SendString(contract.InvalidNumber)
		}
		row, err := db.Insert(c.Context(), *nr.RandomNumber)
		if err != nil {
			return err
		}
		return c.Status(fiber.StatusCreated).JSON(row)
	})
	// fiber listens on tcp4 unless told otherwise; "tcp" takes an IPv6 $HOST too.
	log.Fatal(app.Listen(contract.Addr(), fiber.ListenConfig{
		ListenerNetwork:       fiber.NetworkTCP,
		DisableStartupMessage: true,
	}))
}
