package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The parts of the stack whose CPU a case reports per workflow.
const (
	partTemporal   = "Temporal server"
	partTemporalPG = "PostgreSQL, Temporal's databases"
	partShard      = "PostgreSQL, the shard (Citus coordinator + workers)"
	partPGOther    = "PostgreSQL, background"
	partBench      = "this process"
)

var parts = []string{partTemporal, partTemporalPG, partShard, partPGOther, partBench}

// cpuSampler reads, every second, the CPU time of this process and of the stack's: the PostgreSQL
// clusters and Temporal servers whose command line names the stack's data directory
// (APORTA_STACK_DATA, which deploy/stack.sh exports), and their children (a backend per connection),
// each PostgreSQL backend by its database. Unlike the rates, a case's CPU per workflow by part barely
// changes with what else loads the machine. A process that ends between two samples loses its last
// second at most. Its own reads run on a thread of their own, whose CPU is taken off this process's;
// to keep them few, the machine's other processes are read again only every recheckEvery samples (a
// stack process started meanwhile under a pid used before loses as many seconds at most).
type cpuSampler struct {
	data    string
	self    int
	done    chan struct{}
	out     chan map[string]time.Duration
	samples int

	seen map[int]*procCPU // by pid
}

const recheckEvery = 10

type procCPU struct {
	start       string // /proc/PID/stat's start time: a pid used again is another process
	part        string // "": not the stack's
	first, last time.Duration
}

// startCPUSampler starts sampling; nil when the stack's data directory is unknown.
func startCPUSampler() *cpuSampler {
	data := os.Getenv("APORTA_STACK_DATA")
	if data == "" {
		return nil
	}
	s := &cpuSampler{data: filepath.Clean(data) + "/", self: os.Getpid(), done: make(chan struct{}),
		out: make(chan map[string]time.Duration, 1), seen: map[int]*procCPU{}}
	ready := make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		own := "/proc/self/task/" + strconv.Itoa(syscall.Gettid()) + "/stat"
		s.sample(true)
		own0 := threadCPU(own)
		close(ready)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-s.done:
				s.sample(false)
				cpu := s.total()
				cpu[partBench] -= threadCPU(own) - own0
				s.out <- cpu
				return
			case <-t.C:
				s.sample(false)
			}
		}
	}()
	<-ready
	return s
}

// threadCPU is the CPU time of the thread whose /proc stat file is path.
func threadCPU(path string) time.Duration {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	st, _ := parseStat(b)
	return st.cpu
}

// stop ends the sampling and answers the CPU each part used since the start.
func (s *cpuSampler) stop() map[string]time.Duration {
	if s == nil {
		return nil
	}
	close(s.done)
	return <-s.out
}

func (s *cpuSampler) total() map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, p := range s.seen {
		if p.part != "" {
			out[p.part] += p.last - p.first
		}
	}
	return out
}

type procStat struct {
	ppid  int
	start string
	cpu   time.Duration
}

// clockTick is the unit of /proc/PID/stat's CPU times (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseStat(b)
}

func parseStat(b []byte) (procStat, bool) {
	// pid (comm) state ppid … utime(14) stime(15) … starttime(22); comm may hold spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return procStat{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return procStat{ppid: ppid, start: f[19], cpu: time.Duration(utime+stime) * clockTick}, true
}

func cmdline(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
}

// sample reads every process once. A process first seen after the first sample started during the
// case: all its CPU counts.
func (s *cpuSampler) sample(initial bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	recheck := s.samples%recheckEvery == 0
	s.samples++
	stats := map[int]procStat{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := s.seen[pid]; ok && p.part == "" && !recheck {
			continue
		}
		if st, ok := readStat(pid); ok {
			stats[pid] = st
		}
	}
	// A backend's part comes from its postmaster's: classify asks for the parent's first.
	var classify func(pid int) string
	classify = func(pid int) string {
		st := stats[pid]
		if p, ok := s.seen[pid]; ok && p.start == st.start {
			return p.part
		}
		part := s.partOf(pid, stats, classify)
		p := &procCPU{start: st.start, part: part, last: st.cpu}
		if initial {
			p.first = st.cpu
		}
		s.seen[pid] = p
		return part
	}
	for pid, st := range stats {
		classify(pid)
		s.seen[pid].last = st.cpu
	}
}

// partOf names the part a process belongs to ("" for none). parent classifies its parent.
func (s *cpuSampler) partOf(pid int, stats map[int]procStat, parent func(int) string) string {
	if pid == s.self {
		return partBench
	}
	cmd := cmdline(pid)
	switch {
	case strings.Contains(cmd, s.data) && strings.Contains(cmd, "postgres") && strings.Contains(cmd, " -D "):
		return partPGOther // a postmaster
	case strings.Contains(cmd, s.data) && strings.Contains(cmd, "temporal"):
		return partTemporal // the server on PostgreSQL (--root), or the dev server (--db-filename)
	}
	ppid := stats[pid].ppid
	if _, ok := stats[ppid]; !ok || ppid <= 1 || !strings.HasPrefix(cmd, "postgres: ") {
		return ""
	}
	if parent(ppid) != partPGOther {
		return ""
	}
	// A backend: "postgres: USER DB HOST(PORT) STATE"; background processes name themselves.
	f := strings.Fields(strings.TrimPrefix(cmd, "postgres: "))
	if len(f) < 3 || !(strings.Contains(f[2], "(") || f[2] == "[local]") {
		return partPGOther
	}
	if strings.HasPrefix(f[1], "temporal") {
		return partTemporalPG
	}
	return partShard
}

// cpuByPart writes a case's CPU per workflow by part.
func cpuByPart(cpu map[string]time.Duration, n int) string {
	if cpu == nil {
		return "n/a (APORTA_STACK_DATA unset)"
	}
	var b strings.Builder
	var total time.Duration
	for _, p := range parts {
		total += cpu[p]
		fmt.Fprintf(&b, "%s %s, ", p, cpuEach(cpu[p], n))
	}
	fmt.Fprintf(&b, "in all %s", cpuEach(total, n))
	return b.String()
}
