package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// The arms of transparency: this collector, the baseline's (with
// -baseline), and the same argv by hand.
const (
	armCollect  = "collect"
	armBaseline = "baseline"
	armHand     = "by hand"
)

// arms are the arms this bench alternates.
func (b *bench) arms() []string {
	if b.baseline != "" {
		return []string{armCollect, armBaseline, armHand}
	}
	return []string{armCollect, armHand}
}

// transparency runs each arm once per round on a fresh server, rounds
// times, the arms' order rotated by one every round (collect, by hand;
// by hand, collect; … or with a baseline collect, baseline, by hand;
// baseline, by hand, collect; …), and returns each arm's req/s. The
// first round starts with collect, which gives the argv to copy.
func (b *bench) transparency(rounds int, window, warmup time.Duration) (map[string][]float64, error) {
	suite := filepath.Join(b.work, "transparency.toml")
	src := fmt.Sprintf("name = \"transparency\"\n[load]\ntool = \"bombardier\"\nconnections = 32\nduration = %q\nwarmup = %q\nrepetitions = 1\n%s\n[[target]]\nname = \"stdlib\"\nstart = [%q]\n%s",
		window, warmup, b.isolation(), b.server, ping)
	if err := os.WriteFile(suite, []byte(src), 0o644); err != nil {
		return nil, err
	}
	var argv []string
	through := func(bin string) (float64, error) {
		runDir, _, err := b.collect(bin, suite, "transparency")
		if err != nil {
			return 0, err
		}
		m, err := readManifest(runDir)
		if err != nil {
			return 0, err
		}
		i := slices.IndexFunc(m.Measurements, func(mr runjson.Measurement) bool { return !mr.Warmup })
		if i < 0 {
			return 0, fmt.Errorf("%s: no measurement", runDir)
		}
		if bin == b.fairbench {
			argv = m.Measurements[i].Argv
		}
		dump, err := os.ReadFile(filepath.Join(runDir, m.Measurements[i].Dump))
		if err != nil {
			return 0, err
		}
		return bombardierRate(dump)
	}
	arms := b.arms()
	rps := map[string][]float64{}
	for i := 0; i < rounds; i++ {
		for k := range arms {
			arm := arms[(i+k)%len(arms)]
			var r float64
			var err error
			switch arm {
			case armCollect:
				r, err = through(b.fairbench)
			case armBaseline:
				r, err = through(b.baseline)
			default:
				r, err = b.byHand(argv, warmup)
			}
			if err != nil {
				return nil, err
			}
			rps[arm] = append(rps[arm], r)
		}
	}
	return rps, nil
}

// byHand starts the server as a person would, waits for it, warms it up
// with the same tool, then runs argv against it (its URL's port replaced).
func (b *bench) byHand(argv []string, warmup time.Duration) (float64, error) {
	port, err := freePort()
	if err != nil {
		return 0, err
	}
	server := []string{b.server}
	if b.isolate {
		server = append([]string{"taskset", "-c", "0"}, server...)
	}
	srv := exec.Command(server[0], server[1:]...)
	srv.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	srv.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := srv.Start(); err != nil {
		return 0, err
	}
	defer func() {
		syscall.Kill(-srv.Process.Pid, syscall.SIGKILL)
		srv.Wait()
	}()
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			return 0, errors.New("the server did not listen within 10 s")
		}
	}
	run := make([]string, len(argv))
	for i, a := range argv {
		if strings.HasPrefix(a, "~/") || strings.HasPrefix(a, "{tmp}/") {
			a = rundir.LocalPath(a, b.root) // run.json's portable paths: ~/.cache/fairbench/…
		}
		if strings.HasPrefix(a, "http://127.0.0.1:") {
			u := strings.TrimPrefix(a, "http://127.0.0.1:")
			_, path, _ := strings.Cut(u, "/")
			a = "http://" + addr + "/" + path
		}
		run[i] = a
	}
	if warmup > 0 {
		warm := slices.Clone(run)
		for i := range warm {
			if warm[i] == "-d" && i+1 < len(warm) {
				warm[i+1] = warmup.String()
			}
		}
		if err := exec.Command(warm[0], warm[1:]...).Run(); err != nil {
			return 0, fmt.Errorf("warm-up %q: %w", warm, err)
		}
	}
	out, err := exec.Command(run[0], run[1:]...).Output()
	if err != nil {
		return 0, fmt.Errorf("%q: %w", run, err)
	}
	return bombardierRate(out)
}

// bombardierRate is completed requests ÷ the time bombardier took, from its
// JSON: the same arithmetic for both sides.
func bombardierRate(dump []byte) (float64, error) {
	var d struct {
		Result struct {
			Time   float64 `json:"timeTakenSeconds"`
			R1     int64   `json:"req1xx"`
			R2     int64   `json:"req2xx"`
			R3     int64   `json:"req3xx"`
			R4     int64   `json:"req4xx"`
			R5     int64   `json:"req5xx"`
			Others int64   `json:"others"`
		} `json:"result"`
	}
	if err := json.Unmarshal(dump, &d); err != nil {
		return 0, fmt.Errorf("bombardier JSON: %w", err)
	}
	r := d.Result
	if r.Time <= 0 {
		return 0, errors.New("bombardier JSON: no timeTakenSeconds")
	}
	return float64(r.R1+r.R2+r.R3+r.R4+r.R5+r.Others) / r.Time, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
