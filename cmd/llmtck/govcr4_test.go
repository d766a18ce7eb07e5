package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	govcr4 "gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/recorder"
)

// replayWithV4 asks go-vcr v4's recorder, replaying the cassette at name,
// for the call and returns the response body.
func replayWithV4(t *testing.T, name, method, url, body string) string {
	t.Helper()
	rec, err := recorder.New(name, recorder.WithMode(recorder.ModeReplayOnly), recorder.WithSkipRequestLatency(true),
		recorder.WithMatcher(func(r *http.Request, i govcr4.Request) bool {
			b, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(b))
			return r.Method == i.Method && r.URL.String() == i.URL && string(b) == i.Body
		}))
	if err != nil {
		t.Fatalf("go-vcr v4 recorder on %s: %v", name, err)
	}
	defer rec.Stop()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	resp, err := rec.GetDefaultClient().Do(req)
	if err != nil {
		t.Fatalf("go-vcr v4 replay: %v", err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	return string(got)
}

// record --cassette-format v4 leaves a cassette stock go-vcr v4 loads and
// replays, and a second session appends to it.
func TestRecordCassetteFormatV4(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"echo `+strings.TrimSpace(string(b[len(b)-12:]))+`"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	defer up.Close()
	file := filepath.Join(t.TempDir(), "v4.yaml")
	bodies := []string{`{"model":"claude-x","max_tokens":5,"messages":[{"role":"user","content":"one"}]}`, `{"model":"claude-x","max_tokens":5,"messages":[{"role":"user","content":"two"}]}`}
	var answers []string
	for _, b := range bodies { // two sessions: the second appends to the v4 file
		s := startServer(t, "record", "--upstream", up.URL, "--cassette", file, "--cassette-format", "v4", "--append")
		req, _ := http.NewRequest("POST", s.addr+"/v1/messages", strings.NewReader(b))
		req.Header.Set("X-Api-Key", "sk-ant-secret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		answers = append(answers, string(got))
		if code := s.stop(t, os.Interrupt); code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, s.stderr)
		}
	}
	raw, _ := os.ReadFile(file)
	if !bytes.Contains(raw, []byte("\nversion: 2\n")) || bytes.Contains(raw, []byte("sk-ant-secret")) {
		t.Fatalf("not a redacted go-vcr v4 cassette:\n%s", raw)
	}
	c, err := govcr4.Load(strings.TrimSuffix(file, ".yaml"))
	if err != nil || len(c.Interactions) != 2 {
		t.Fatalf("go-vcr v4 loads %v, %v", c, err)
	}
	for i, b := range bodies {
		url := c.Interactions[i].Request.URL
		if got := replayWithV4(t, strings.TrimSuffix(file, ".yaml"), "POST", url, b); got != answers[i] {
			t.Errorf("go-vcr v4 replayed %q for call %d, want %q", got, i, answers[i])
		}
	}
}

// import --to govcr-v4 converts a recording into a cassette go-vcr v4 replays.
func TestImportToGoVCRv4(t *testing.T) {
	src := filepath.Join("..", "..", "fixtures", "checks", "ANT-TOOL-001", "pass-real-tool-call.yaml")
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "import", "--to", "govcr-v4", src, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	name := filepath.Join(out, "pass-real-tool-call")
	c, err := govcr4.Load(name)
	if err != nil || len(c.Interactions) != 2 {
		t.Fatalf("go-vcr v4 loads %v, %v", c, err)
	}
	in := c.Interactions[1]
	if got := replayWithV4(t, name, in.Request.Method, in.Request.URL, in.Request.Body); got != in.Response.Body {
		t.Errorf("replayed body differs")
	}
	if code, _, errOut := runCLI(t, "import", "--to", "govcr-v9", src, "-o", out); code != 2 || !strings.Contains(errOut, "govcr-v4") {
		t.Errorf("--to govcr-v9: exit %d, %q", code, errOut)
	}
}
