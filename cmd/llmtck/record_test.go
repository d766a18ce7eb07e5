package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	govcr "github.com/dnaeon/go-vcr/v2/cassette"
)

// TestServerChild runs the CLI with the arguments in LLMTCK_CLI_ARGS, as a
// child process the server tests can signal; it does nothing otherwise.
func TestServerChild(t *testing.T) {
	args := os.Getenv("LLMTCK_CLI_ARGS")
	if args == "" {
		t.Skip("only run as a child of the server verb tests")
	}
	if n := os.Getenv("LLMTCK_CHILD_FSIZE"); n != "" {
		limitFileSize(t, n)
	}
	os.Exit(run(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
}

// server is a CLI server verb running in a child process.
type server struct {
	cmd    *exec.Cmd
	addr   string        // from the first stdout line
	stderr *syncBuffer   // written by the child's stderr copier while a test reads it
	rest   *bufio.Reader // stdout after the first line
}

// syncBuffer is a bytes.Buffer safe to read while another goroutine writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	return startServerEnv(t, nil, args...)
}

// startServerEnv is startServer with more environment for the child.
func startServerEnv(t *testing.T, env []string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServerChild$")
	cmd.Env = append(append(os.Environ(), "LLMTCK_CLI_ARGS="+strings.Join(args, "\x1f")), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, stderr: &syncBuffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	s.rest = bufio.NewReader(out)
	line, err := s.rest.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening on http://127.0.0.1:") {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("first stdout line %q (%v); stderr:\n%s", line, err, s.stderr)
	}
	s.addr = strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
	return s
}

// stop sends sig and waits for the process to exit, returning its code.
func (s *server) stop(t *testing.T, sig os.Signal) int {
	t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { io.Copy(io.Discard, s.rest); done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatalf("still running 15s after %v; stderr:\n%s", sig, s.stderr)
	}
	return s.cmd.ProcessState.ExitCode()
}

func TestRecordVerbRecordsAndStopsOnSIGINT(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\"}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	}))
	defer up.Close()
	file := filepath.Join(t.TempDir(), "rec.yaml")
	s := startServer(t, "record", "--upstream", up.URL, "--cassette", file)
	req, _ := http.NewRequest("POST", s.addr+"/v1/messages", strings.NewReader(`{"model":"claude-x","max_tokens":5,"messages":[{"role":"user","content":"hi"}],"stream":true}`))
	req.Header.Set("X-Api-Key", "sk-ant-secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "message_stop") {
		t.Fatalf("body %q", body)
	}
	if code := s.stop(t, os.Interrupt); code != 0 {
		t.Fatalf("exit %d after SIGINT; stderr:\n%s", code, s.stderr)
	}
	if !strings.Contains(s.stderr.String(), "record POST 127.0.0.1:") || !strings.Contains(s.stderr.String(), "/v1/messages 200 stream") || !strings.Contains(s.stderr.String(), "cassette=rec.yaml#0") {
		t.Errorf("no call line on stderr:\n%s", s.stderr)
	}
	c, err := govcr.Load(strings.TrimSuffix(file, ".yaml"))
	if err != nil || len(c.Interactions) != 1 || c.Interactions[0].Request.Headers.Get("X-Api-Key") != "REDACTED" {
		t.Fatalf("cassette: %v %+v", err, c)
	}
}

func TestServerVerbUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"record", "--cassette", "x.yaml"},
		{"record", "--upstream", "ftp://x", "--cassette", "x.yaml"},
		{"record", "--upstream", "https://api.anthropic.com", "--cassette", "x.yaml", "stray"},
		{"proxy", "--ca-dir", t.TempDir(), "--mode", "bogus", "--cassette-dir", t.TempDir()},
		{"proxy", "--ca-dir", t.TempDir()},
		{"replay"},
		{"replay", "--cassette", filepath.Join(t.TempDir(), "missing.yaml")},
		{"replay", "--cassette", "x.yaml", "--timing", "slow"},
		{"replay", "--bogus-flag"},
	} {
		if code, _, errOut := runCLI(t, args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errOut)
		}
	}
}
