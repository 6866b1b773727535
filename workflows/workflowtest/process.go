package workflowtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
)

// ServeProcess is the body of the worker test a Process runs (its Run): without the variable queueEnv
// (the test run in the ordinary way) it skips; with it, it serves that task queue on the test stack's
// Temporal, with what register adds (given the client, to serve other queues too), until the process
// is killed. killTest names the test that starts the process, for the skip message.
func ServeProcess(t *testing.T, queueEnv, killTest string, register func(c client.Client, w worker.Registry)) {
	queue := os.Getenv(queueEnv)
	if queue == "" {
		t.Skip("only runs as the worker process of " + killTest)
	}
	c := Client(t)
	w := worker.New(c, queue, worker.Options{})
	register(c, w)
	require.NoError(t, w.Start())
	fmt.Println("worker process ready on", queue)
	select {} // until killed
}

// Process is a worker run as a separate OS process, to be killed mid-activity: the test binary
// itself, running only the test Run names (which serves the worker until killed), with Env added.
// Its output goes to a log the test shows when it fails. A goroutine of the test may kill and
// restart it while another reads Kills.
type Process struct {
	Run string   // the worker test's name
	Env []string // KEY=value, how the worker test finds its queue and services

	t       *testing.T
	logPath string
	mu      sync.Mutex
	cmd     *exec.Cmd
	starts  int
	kills   int
}

// StartProcess starts p, and kills it when the test ends.
func StartProcess(t *testing.T, p *Process) *Process {
	t.Helper()
	p.t, p.logPath = t, filepath.Join(t.TempDir(), "worker.log")
	p.Start()
	t.Cleanup(func() {
		p.Kill()
		if t.Failed() {
			data, _ := os.ReadFile(p.logPath)
			t.Logf("worker log (tail):\n%s", data[max(0, len(data)-8000):])
		}
	})
	return p
}

// Start starts the process (again, after a Kill).
func (p *Process) Start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	log, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	require.NoError(p.t, err)
	defer log.Close()
	p.starts++
	fmt.Fprintf(log, "\n=== start %d at %s\n", p.starts, time.Now().Format(time.StampMilli))
	cmd := exec.Command(os.Args[0], "-test.run=^"+p.Run+"$", "-test.count=1", "-test.timeout=0")
	cmd.Env = append(os.Environ(), p.Env...)
	cmd.Stdout, cmd.Stderr = log, log
	require.NoError(p.t, cmd.Start())
	p.cmd = cmd
}

// Kill sends SIGKILL: activities die mid-flight, no graceful stop.
func (p *Process) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return
	}
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
	p.cmd = nil
	p.kills++
}

// Kills is how many times the process was killed.
func (p *Process) Kills() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.kills
}
