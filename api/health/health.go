// Package health answers /healthz (the process is up) and /readyz (every dependency answers).
package health

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/internal/readiness"
)

// Check is one dependency's probe.
type Check = readiness.Check

// Healthz answers while the process serves requests.
func Healthz(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"status": "ok"}) }

// Readyz probes every dependency in parallel, each within timeout, and answers 503 when any is down.
// Only a request details allows (staff, or a probe on the machine itself) sees each check and its
// error: they name the internal hosts and ports.
func Readyz(checks []Check, timeout time.Duration, details func(*gin.Context) bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		c.JSON(readiness.Report(c.Request.Context(), checks, timeout, details(c)))
	}
}
