package proxy

import (
	"bufio"
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
)

// TestKillChild is the recorder that TestKilledRecorderLeavesALoadableCassette
// runs in a child process and kills; it does nothing in a normal test run.
func TestKillChild(t *testing.T) {
	path, upstream := os.Getenv("LLMTCK_KILL_CASSETTE"), os.Getenv("LLMTCK_KILL_UPSTREAM")
	if path == "" {
		t.Skip("only run as the child of TestKilledRecorderLeavesALoadableCassette")
	}
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
	u, _ := url.Parse(upstream)
	front := httptest.NewServer(NewHandler(rec, u))
	fmt.Printf("listening on %s\n", front.URL)
	select {} // until killed
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
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$")
	// The killed child cannot clean its temporary files; give it ours.
	cmd.Env = append(os.Environ(), "LLMTCK_KILL_CASSETTE="+path, "LLMTCK_KILL_UPSTREAM="+up.URL, "TMPDIR="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening on http://") {
		t.Fatalf("child said %q, %v", line, err)
	}
	addr := strings.TrimSpace(strings.TrimPrefix(line, "listening on "))

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
