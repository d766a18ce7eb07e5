package proxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/cassette"
)

// TestKillChild is the recorder that the kill tests run in a child process
// and kill; it does nothing in a normal test run.
func TestKillChild(t *testing.T) {
	path, upstream := os.Getenv("LLMTCK_KILL_CASSETTE"), os.Getenv("LLMTCK_KILL_UPSTREAM")
	if path == "" {
		t.Skip("only run as the child of a kill test")
	}
	if os.Getenv("LLMTCK_KILL_SPILL") != "" {
		smallSpill(t)
	}
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
	u, _ := url.Parse(upstream)
	front := httptest.NewServer(NewHandler(rec, u))
	fmt.Printf("listening on %s\n", front.URL)
	select {} // until killed
}

// startKillChild starts TestKillChild recording into path from upstream,
// and returns it with the address it listens on. extra is added to its
// environment.
func startKillChild(t *testing.T, path, upstream string, extra ...string) (*exec.Cmd, string) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$")
	// The killed child cannot clean its temporary files; give it ours.
	cmd.Env = append(append(os.Environ(), "LLMTCK_KILL_CASSETTE="+path, "LLMTCK_KILL_UPSTREAM="+upstream, "TMPDIR="+t.TempDir()), extra...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening on http://") {
		t.Fatalf("child said %q, %v", line, err)
	}
	return cmd, strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
}

// A recorder killed with SIGKILL in the middle of a stream leaves a cassette
// that stock go-vcr loads, holding every interaction that had finished.
func TestKilledRecorderLeavesALoadableCassette(t *testing.T) {
	hang := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: message_start\ndata: {\"type\":\"message_start\",\"req\":%s}\n\n", body)
		if strings.Contains(string(body), "hang") {
			http.NewResponseController(w).Flush()
			<-hang
			return
		}
		fmt.Fprint(w, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	}))
	defer up.Close()
	defer close(hang) // before up.Close, which waits for the hanging handler

	path := filepath.Join(t.TempDir(), "killed.yaml")
	cmd, addr := startKillChild(t, path, up.URL)

	const finished = 5
	for i := range finished {
		resp, err := http.Post(addr+"/v1/messages", "application/json", strings.NewReader(fmt.Sprintf(`{"n":%d}`, i)))
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	// One more call, left hanging mid-stream when the recorder dies.
	resp, err := http.Post(addr+"/v1/messages", "application/json", strings.NewReader(`{"n":"hang"}`))
	if err != nil {
		t.Fatal(err)
	}
	first := make([]byte, 10)
	if _, err := io.ReadFull(resp.Body, first); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(os.Kill); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	resp.Body.Close()

	c := loadStock(t, path)
	if len(c.Interactions) != finished {
		t.Fatalf("%d interactions after kill -9, want the %d finished ones", len(c.Interactions), finished)
	}
	for i, in := range c.Interactions {
		if want := fmt.Sprintf(`{"n":%d}`, i); in.Request.Body != want || !strings.Contains(in.Response.Body, "message_stop") {
			t.Errorf("interaction %d: request %s, response %q", i, in.Request.Body, in.Response.Body)
		}
	}
}

// A recorder killed while it writes a long stream into the cassette in
// place leaves a cassette stock go-vcr loads with every finished
// interaction: the unfinished one is behind cassette.Busy, outside the YAML
// document. A recorder that opens it again moves those bytes aside, not
// dropping them, and records on.
func TestKilledMidStreamInPlace(t *testing.T) {
	hang := make(chan struct{})
	up := gatedStream(events(200<<10), nil, hang)
	defer up.Close()
	defer close(hang)
	path := filepath.Join(t.TempDir(), "killed.yaml")
	cmd, addr := startKillChild(t, path, up.URL, "LLMTCK_KILL_SPILL=1")
	const finished = 3
	for i := range finished {
		resp, err := http.Post(addr+"/v1/json", "application/json", strings.NewReader(fmt.Sprintf(`{"n":%d}`, i)))
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	resp, err := http.Post(addr+"/v1/messages", "application/json", strings.NewReader(`{"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	go io.Copy(io.Discard, resp.Body)
	waitFor(t, func() bool { return marked(path) })
	if err := cmd.Process.Signal(os.Kill); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	if c := loadStock(t, path); len(c.Interactions) != finished {
		t.Fatalf("go-vcr reads %d interactions after kill -9, want the %d finished ones", len(c.Interactions), finished)
	}
	raw, _ := os.ReadFile(path)
	log := &syncBuffer{}
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Log: log})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if c := assertCanonical(t, path); len(c.Interactions) != finished {
		t.Fatalf("%d interactions once reopened, want %d", len(c.Interactions), finished)
	}
	torn, _ := filepath.Glob(path + ".torn-*")
	if len(torn) != 1 {
		t.Fatalf("torn files %v, want one; log:\n%s", torn, log.String())
	}
	moved, _ := os.ReadFile(torn[0])
	if kept, _ := os.ReadFile(path); !bytes.HasPrefix(moved, []byte(cassette.Busy)) || !bytes.Equal(append(kept, moved...), raw) {
		t.Errorf("the bytes moved aside are not the unfinished interaction from its mark on")
	}
}
