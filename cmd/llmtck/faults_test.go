package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	govcr "github.com/dnaeon/go-vcr/v2/cassette"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/report"
)

// A disk that fills up while recording: every client still gets its
// response, the cassette keeps the calls that fit and still loads, and the
// recorder exits non-zero saying how many calls it did not record and why.
func TestRecordFullDisk(t *testing.T) {
	if !canLimitFileSize {
		t.Skip("needs RLIMIT_FSIZE to fill a file")
	}
	answer := `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"` + strings.Repeat("lorem ipsum ", 150) + `"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer)
	}))
	defer up.Close()
	file := filepath.Join(t.TempDir(), "full.yaml")
	s := startServerEnv(t, []string{"LLMTCK_CHILD_FSIZE=12000"}, "record", "--upstream", up.URL, "--cassette", file)
	const calls = 10
	for i := range calls {
		body := fmt.Sprintf(`{"model":"claude-x","max_tokens":5,"messages":[{"role":"user","content":"call %d"}]}`, i)
		resp, err := http.Post(s.addr+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(got) != answer {
			t.Fatalf("call %d: the client got %d, %d bytes", i, resp.StatusCode, len(got))
		}
	}
	code := s.stop(t, os.Interrupt)
	if code == 0 {
		t.Fatalf("the recorder exited 0 after losing calls; stderr:\n%s", s.stderr)
	}
	c, err := govcr.Load(strings.TrimSuffix(file, ".yaml"))
	if err != nil {
		t.Fatalf("the cassette does not load: %v", err)
	}
	lost := calls - len(c.Interactions)
	if lost == 0 || len(c.Interactions) == 0 {
		t.Fatalf("%d of %d calls recorded: the limit did not bite where it should", len(c.Interactions), calls)
	}
	want := fmt.Sprintf("%d calls were not recorded", lost)
	if !strings.Contains(s.stderr.String(), want) || !strings.Contains(s.stderr.String(), "writing the cassette failed") {
		t.Errorf("stderr lacks %q and its reason:\n%s", want, s.stderr)
	}
}

// A second llmtck record on a cassette another one is writing refuses at
// start with exit 1, and the first records undisturbed.
func TestSecondRecorderRefused(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	defer up.Close()
	file := filepath.Join(t.TempDir(), "shared.yaml")
	first := startServer(t, "record", "--upstream", up.URL, "--cassette", file)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	second := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestServerChild$")
	second.Env = append(os.Environ(), "LLMTCK_CLI_ARGS="+strings.Join([]string{"record", "--upstream", up.URL, "--cassette", file}, "\x1f"))
	out, err := second.CombinedOutput()
	if code := second.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "another recorder is writing this cassette") {
		t.Fatalf("second recorder: exit %d (%v)\n%s", code, err, out)
	}

	resp, err := http.Post(first.addr+"/v1/messages", "application/json", strings.NewReader(`{"model":"claude-x","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	if code := first.stop(t, os.Interrupt); code != 0 {
		t.Fatalf("first recorder exit %d:\n%s", code, first.stderr)
	}
	if c, err := govcr.Load(strings.TrimSuffix(file, ".yaml")); err != nil || len(c.Interactions) != 1 {
		t.Fatalf("cassette: %v", err)
	}
}

// A recorder killed while appending a large interaction (copied from its
// spill file in pieces) leaves a torn tail; check and replay read the
// complete interactions before it and say what they left out.
func TestTornCassetteReadable(t *testing.T) {
	src, err := cassette.Load(filepath.Join("..", "..", "fixtures", "checks", "XP-RAW-001", "pass-real-anthropic-signatures-byte-exact.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	big := *src.Interactions[0]
	big.Response.Body = append([]byte(`{"padding":"`+strings.Repeat("x", 5<<20)), `"}`...)
	whole := len(src.Interactions)
	src.Interactions = append(src.Interactions, &big)
	var buf bytes.Buffer
	if err := src.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	file := filepath.Join(t.TempDir(), "torn.yaml")
	writeFile(t, file, data[:len(data)-(3<<20)]) // killed 2 MiB into the body

	code, stdout, stderr := runCLI(t, "check", "--format", "json", file)
	if code != 0 {
		t.Fatalf("check exit %d:\n%s%s", code, stdout, stderr)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if f := r.Files[0]; f.Error != "" || f.Interactions != whole || !strings.Contains(f.Note, "cut in the middle") {
		t.Fatalf("check read %d interactions (want %d), error %q, note %q", f.Interactions, whole, f.Error, f.Note)
	}

	s := startServer(t, "replay", "--cassette", file)
	in := src.Interactions[0]
	resp, err := http.Post(s.addr+"/v1/messages?beta=true", "application/json", bytes.NewReader(in.Request.Body))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(got, in.Response.Body) {
		t.Fatalf("replay: %d, %d bytes; stderr:\n%s", resp.StatusCode, len(got), s.stderr)
	}
	s.stop(t, os.Interrupt)
	if !strings.Contains(s.stderr.String(), "cut in the middle") {
		t.Errorf("replay did not say what it left out:\n%s", s.stderr)
	}
}

// Recording onto a cassette that holds interactions is an explicit choice:
// without --append or --overwrite, record refuses (exit 2) and the file is
// untouched; --overwrite starts it over; --append adds.
func TestRecordOntoExistingCassette(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	defer up.Close()
	file := filepath.Join(t.TempDir(), "once.yaml")
	session := func(flags ...string) {
		s := startServer(t, append([]string{"record", "--upstream", up.URL, "--cassette", file}, flags...)...)
		resp, err := http.Post(s.addr+"/v1/messages", "application/json", strings.NewReader(`{"model":"claude-x","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
		if code := s.stop(t, os.Interrupt); code != 0 {
			t.Fatalf("exit %d:\n%s", code, s.stderr)
		}
	}
	count := func() int {
		c, err := cassette.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		return len(c.Interactions)
	}
	session()
	before, _ := os.ReadFile(file)
	code, _, stderr := runCLI(t, "record", "--upstream", up.URL, "--cassette", file)
	if code != 2 || !strings.Contains(stderr, "already holds 1 interaction: pass --append") {
		t.Fatalf("record onto a cassette: exit %d\n%s", code, stderr)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Fatal("the refused record changed the cassette")
	}
	session("--append")
	if n := count(); n != 2 {
		t.Fatalf("--append: %d interactions, want 2", n)
	}
	session("--overwrite")
	if n := count(); n != 1 {
		t.Fatalf("--overwrite: %d interactions, want 1", n)
	}
}

// A cassette cut inside its only interaction holds nothing to check: check
// calls it unreadable (exit 2) in every format, instead of passing it.
func TestTornCassetteWithNothingLeftIsUnreadable(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "checks", "ANT-TOOL-001", "pass-real-tool-call.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := cassette.Parse("x.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	c.Interactions = c.Interactions[:1]
	big := c.Interactions[0]
	big.Response.Body = append([]byte(`{"padding":"`+strings.Repeat("x", 5<<20)), `"}`...)
	var buf bytes.Buffer
	if err := c.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "torn.yaml")
	writeFile(t, file, buf.Bytes()[:buf.Len()-(3<<20)])
	for _, format := range []string{"text", "json", "junit", "sarif", "github"} {
		code, stdout, stderr := runCLI(t, "check", "--format", format, file)
		if code != 2 || !strings.Contains(stdout+stderr, "cut in the middle") {
			t.Errorf("check --format %s of a cassette with no complete interaction: exit %d\n%s%s", format, code, stdout, stderr)
		}
	}
}
