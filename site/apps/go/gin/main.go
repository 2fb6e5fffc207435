// Command gin serves the benchmark contract with gin-gonic/gin.
package main

import (
	"io"
	"log"
	"net/http"
	"os"

	"github.com/gin-gonic/gin"
)

func main() {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.GET("/", func(c *gin.Context) {
		c.Data(http.StatusOK, "text/plain", []byte("Hi"))
	})
	r.GET("/id/:id", func(c *gin.Context) {
		c.Header("X-Powered-By", "benchmark")
		c.Data(http.StatusOK, "text/plain", []byte(c.Param("id")+" "+c.Query("name")))
	})
	r.POST("/json", func(c *gin.Context) {
		body, err := io.ReadAll(c.Request.Body)
		if err != nil {
			c.String(http.StatusBadRequest, "bad body")
			return
		}
		c.Data(http.StatusOK, "application/json", body)
	})
	port := os.Getenv("PORT")
	if port == "" {
		port = "3000"
	}
	log.Fatal(r.Run("127.0.0.1:" + port))
}
