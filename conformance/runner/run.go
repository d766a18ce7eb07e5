package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/internal/httpserve"
)

// DefaultTimeout bounds one scenario's run of the command.
const DefaultTimeout = 2 * time.Minute

// Options say how to run the harness command.
type Options struct {
	// Command is the harness and its arguments.
	Command []string
	// Timeout bounds each scenario's run; 0 means DefaultTimeout. A
	// command still running then is killed with its process group.
	Timeout time.Duration
	// Env is the environment the command starts from; nil means this
	// process's. The variables of Environment are set over it.
	Env []string
	// Dir is the command's working directory; "" means this process's.
	Dir string
	// Output, when set, receives the command's stdout and stderr as they
	// come; they are also kept (the last OutputTail bytes) in the Result.
	Output io.Writer
}

// OutputTail is how much of the command's output a Result keeps.
const OutputTail = 16 << 10

// Result is one scenario's verdict.
type Result struct {
	Name     string
	Pass     bool
	Duration time.Duration
	// ExitCode is the command's exit status; -1 when it did not start or
	// was killed.
	ExitCode int
	TimedOut bool
	Steps    int // the scenario's steps
	Served   int // steps answered
	Requests int // requests received, refused ones included
	// Failures say why the scenario failed, one line each; empty when it
	// passed.
	Failures []string
	// Warnings are what was reported without failing the scenario.
	Warnings []string
	// Refusals are the requests the simulated providers refused, with the
	// answer the harness saw.
	Refusals []Refusal
	// Findings are every error and warning of the checks on the traffic.
	Findings []check.Finding
	// Output is the end of the command's stdout and stderr, interleaved.
	Output string
}

// Refusal is a refused request and the provider error the harness was
// answered with, byte for byte.
type Refusal struct {
	Step    int    `json:"step"` // 1-based: the step the request asked for
	Check   string `json:"check,omitempty"`
	Status  int    `json:"status"`
	Message string `json:"message"`
	Detail  string `json:"detail,omitempty"`
	Body    string `json:"body"`
}

func (r Refusal) String() string {
	id := r.Check
	if id == "" {
		id = "-"
	}
	s := fmt.Sprintf("step %d refused: HTTP %d %s: %s", r.Step, r.Status, id, r.Message)
	if r.Detail != "" && r.Detail != r.Message {
		s += " (" + r.Detail + ")"
	}
	return s
}

// Run plays s against the command: it serves s's simulated providers on
// one loopback listener, runs the command with Environment, and judges the
// traffic once the command exits. ctx ends the run early as a timeout does.
func Run(ctx context.Context, s Scenario, opt Options) (res Result) {
	start := time.Now()
	res = Result{Name: s.Name, ExitCode: -1}
	defer func() { res.Duration = time.Since(start) }()
	sc := s.sc
	if sc == nil {
		res.Failures = append(res.Failures, "the scenario was not read by this package")
		return res
	}
	res.Steps = len(sc.Steps)
	if len(opt.Command) == 0 {
		res.Failures = append(res.Failures, "no command to run")
		return res
	}

	sim := simulator.NewSimulator(sc)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		res.Failures = append(res.Failures, "could not listen: "+err.Error())
		return res
	}
	srv := &http.Server{Handler: sim.Mux(), ReadHeaderTimeout: time.Minute, Protocols: httpserve.Protocols()}
	go srv.Serve(ln)
	base := "http://" + ln.Addr().String()

	path, cleanup, err := scenarioFile(s)
	if err != nil {
		srv.Close()
		res.Failures = append(res.Failures, "could not write the scenario file: "+err.Error())
		return res
	}
	defer cleanup()

	out := &tail{max: OutputTail}
	var w io.Writer = out
	if opt.Output != nil {
		w = io.MultiWriter(out, opt.Output)
	}
	env := opt.Env
	if env == nil {
		env = os.Environ()
	}
	res.ExitCode, res.TimedOut, err = runCommand(ctx, opt, Environment(env, base, path, s.Name), w)
	srv.Close()
	res.Output = out.String()
	switch {
	case res.TimedOut && ctx.Err() != nil:
		res.Failures = append(res.Failures, "interrupted: the command and its process group were killed")
	case res.TimedOut:
		res.Failures = append(res.Failures, fmt.Sprintf("timed out after %v: the command and its process group were killed", timeout(opt)))
	case err != nil:
		res.Failures = append(res.Failures, "the command did not run: "+err.Error())
	case res.ExitCode != 0:
		res.Failures = append(res.Failures, fmt.Sprintf("the command exited with status %d", res.ExitCode))
	}
	judge(sim, &res)
	res.Pass = len(res.Failures) == 0
	return res
}

// judge adds the simulator's verdict to res.
func judge(sim *simulator.Simulator, res *Result) {
	res.Served, res.Requests = sim.Served(), sim.Requests()
	for _, rj := range sim.Rejections() {
		r := Refusal{Step: rj.Step + 1, Check: rj.Check, Status: rj.Status, Message: rj.Message, Detail: rj.Detail, Body: string(rj.Body)}
		res.Refusals = append(res.Refusals, r)
		res.Failures = append(res.Failures, r.String())
	}
	switch {
	case res.Requests == 0:
		res.Failures = append(res.Failures, "the harness sent no request")
	case res.Served < res.Steps:
		res.Failures = append(res.Failures, fmt.Sprintf("step %d of %d was left unserved: the harness stopped after %d", res.Served+1, res.Steps, res.Served))
	}
	for _, n := range sim.Notes() {
		res.Failures = append(res.Failures, n)
	}
	for _, f := range sim.Judge(nil) {
		switch f.Severity {
		case check.SeverityError:
			res.Findings = append(res.Findings, f)
			res.Failures = append(res.Failures, "error "+f.String())
		case check.SeverityWarning:
			res.Findings = append(res.Findings, f)
			res.Warnings = append(res.Warnings, "warning "+f.String())
		}
	}
	if steps := sim.UnstreamedAborts(); len(steps) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("step %v is stopped mid-stream by the scenario, but the harness did not ask for a stream: stopping was not exercised", steps))
	}
	res.Warnings = append(res.Warnings, sim.SideRequests()...)
}

// scenarioFile is the path of s's file for the command: its own, or a
// temporary copy of a bundled one at <dir>/<provider>/<what>.json.
func scenarioFile(s Scenario) (path string, cleanup func(), err error) {
	if s.Path != "" {
		return s.Path, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "llmtck-scenario-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, filepath.FromSlash(s.Name)+".json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		cleanup()
		return "", nil, err
	}
	if err := os.WriteFile(path, s.Data, 0o644); err != nil {
		cleanup()
		return "", nil, err
	}
	return path, cleanup, nil
}

func timeout(opt Options) time.Duration {
	if opt.Timeout > 0 {
		return opt.Timeout
	}
	return DefaultTimeout
}

// runCommand runs the command to its end or its timeout, whichever comes
// first; a timed-out command is killed with its process group, and so is
// anything it left running when it exits.
func runCommand(ctx context.Context, opt Options, env []string, out io.Writer) (code int, timedOut bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout(opt))
	defer cancel()
	cmd := exec.Command(opt.Command[0], opt.Command[1:]...)
	cmd.Env, cmd.Dir = env, opt.Dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = time.Second // a grandchild holding the pipes open does not hold the run
	ownProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return -1, false, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
		killProcessGroup(cmd)
	case <-ctx.Done():
		killProcessGroup(cmd)
		<-done
		return -1, true, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), false, nil
	}
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return -1, false, err
	}
	return cmd.ProcessState.ExitCode(), false, nil
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu   sync.Mutex
	max  int
	buf  []byte
	lost bool
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.lost = true
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.lost {
		return "…" + strings.ToValidUTF8(string(t.buf), "")
	}
	return string(t.buf)
}
