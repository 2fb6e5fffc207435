// Command gin serves the benchmark contract (site/apps/README.md) with
// gin-gonic/gin: gin routes, c.JSON, ShouldBindJSON with `binding` tags
// (go-playground/validator) and r.Static.
package main

import (
	"context"
	"errors"
	"log"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/fairbench/fairbench/site/apps/go/internal/contract"
	"github.com/fairbench/fairbench/site/apps/go/internal/world"
)

func main() {
	db, err := world.Open(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.GET("/", func(c *gin.Context) {
		c.String(http.StatusOK, contract.Ping)
	})
	r.GET("/id/:id", func(c *gin.Context) {
		c.Header("X-Powered-By", contract.PoweredBy)
		c.String(http.StatusOK, c.Param("id")+" "+c.Query("name"))
	})
	r.POST("/json", func(c *gin.Context) {
		var body any
		if err := c.ShouldBindJSON(&body); err != nil {
			c.String(http.StatusBadRequest, "invalid json")
			return
		}
		c.JSON(http.StatusOK, body)
	})
	r.GET("/plaintext", func(c *gin.Context) {
		c.String(http.StatusOK, contract.Plaintext)
	})
	r.GET("/json", func(c *gin.Context) {
		c.JSON(http.StatusOK, contract.Message{Message: contract.Plaintext})
	})
	r.GET("/sum/:a/:b", func(c *gin.Context) {
		sum, ok := contract.Sum(c.Param("a"), c.Param("b"))
		if !ok {
			c.String(http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		c.String(http.StatusOK, sum)
	})
	r.GET("/calc", func(c *gin.Context) {
		res, ok := contract.Calc(c.Query("a"), c.Query("b"), c.Query("c"), c.Query("d"))
		if !ok {
			c.String(http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		c.String(http.StatusOK, res)
	})
	r.POST("/api/users/:id", func(c *gin.Context) {
		id, ok := contract.ParseInt(c.Param("id"))
		if !ok {
			c.String(http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		var order contract.Order
		if err := c.ShouldBindJSON(&order); err != nil {
			c.String(http.StatusBadRequest, "invalid json")
			return
		}
		c.JSON(http.StatusOK, contract.Reshape(id, c.GetHeader("X-Request-Id"), c.Query("currency"), &order))
	})
	r.POST("/validate", func(c *gin.Context) {
		var p contract.Person
		if err := c.ShouldBindJSON(&p); err != nil {
			c.Data(http.StatusBadRequest, contract.ApplicationJSON, []byte(contract.ValidationFailed))
			return
		}
		c.JSON(http.StatusOK, p)
	})
	r.Static("/static", contract.StaticDir)
	r.GET("/db/:id", func(c *gin.Context) {
		id, ok := contract.ParseInt(c.Param("id"))
		if !ok {
			c.String(http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		row, err := db.Get(c.Request.Context(), id)
		switch {
		case errors.Is(err, world.ErrNoRow):
			c.String(http.StatusNotFound, contract.NotFound)
		case err != nil:
			c.String(http.StatusInternalServerError, err.Error())
		default:
			c.JSON(http.StatusOK, row)
		}
	})
	r.GET("/db", func(c *gin.Context) {
		offset, limit, ok := contract.Page(c.Query("page"), c.Query("size"))
		if !ok {
			c.String(http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		rows, err := db.List(c.Request.Context(), offset, limit)
		if err != nil {
			c.String(http.StatusInternalServerError, err.Error())
			return
		}
		c.JSON(http.StatusOK, rows)
	})
	r.POST("/db", func(c *gin.Context) {
		var nr contract.NewRow
		if err := c.ShouldBindJSON(&nr); err != nil || !nr.Valid() {
			c.String(http.StatusBadRequest, contract.InvalidNumber)
			return
		}
		row, err := db.Insert(c.Request.Context(), *nr.RandomNumber)
		if err != nil {
			c.String(http.StatusInternalServerError, err.Error())
			return
		}
		c.JSON(http.StatusCreated, row)
	})
	log.Fatal(r.Run(contract.Addr()))
}
