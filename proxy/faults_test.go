package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmtck/llmtck/cassette"
)

// faultyProvider misbehaves as the request body asks.
func faultyProvider(cancelled chan<- struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Fault string }
		json.NewDecoder(r.Body).Decode(&req)
		switch req.Fault {
		case "cut": // stream two events, then drop the connection
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\"}\n\nevent: ping\ndata: {\"type\": \"ping\"}\n\n")
			http.NewResponseController(w).Flush()
			panic(http.ErrAbortHandler)
		case "cutjson": // send half a JSON answer, then drop the connection
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(200)
			io.WriteString(w, `{"id":"msg_1","type":"message","content":[{"type":"text","text":"Hel`)
			http.NewResponseController(w).Flush()
			panic(http.ErrAbortHandler)
		case "short": // end the body cleanly, before the stream's terminal event
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-x\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n")
		case "429", "500", "529":
			code := map[string]int{"429": 429, "500": 500, "529": 529}[req.Fault]
			kind := map[int]string{429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}[code]
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(code)
			fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":"Overloaded"},"request_id":"req_011"}`, kind)
		case "slow": // stream until the caller goes away
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			for i := 0; ; i++ {
				fmt.Fprintf(w, "event: content_block_delta\ndata: {\"i\":%d}\n\n", i)
				http.NewResponseController(w).Flush()
				select {
				case <-r.Context().Done():
					cancelled <- struct{}{}
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"msg_1","type":"message","content":[]}`)
		}
	}
}

// route is one way a client reaches a provider through llmtck.
type route struct {
	name   string
	client *http.Client
	url    string // where the client sends /v1/messages
	rec    *Recorder
	path   string // the cassette
}

func routes(t *testing.T, h http.Handler) []route {
	ca, err := LoadOrCreateCA(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	plain := httptest.NewServer(h)
	t.Cleanup(plain.Close)
	u, _ := url.Parse(plain.URL)
	base := mustRecorder(t, Options{Mode: ModeRecord, Cassette: filepath.Join(dir, "base.yaml")})
	front := httptest.NewServer(NewHandler(base, u))
	t.Cleanup(front.Close)

	secure := httptest.NewTLSServer(h)
	t.Cleanup(secure.Close)
	fwdRec := mustRecorder(t, Options{Mode: ModeRecord, Dir: dir, Upstream: upstreamToServer(secure)})
	fwd := httptest.NewServer(NewForward(fwdRec, ForwardOptions{CA: ca}))
	t.Cleanup(fwd.Close)
	return []route{
		{"record", &http.Client{}, front.URL, base, filepath.Join(dir, "base.yaml")},
		{"proxy", viaProxy(fwd.URL, ca), "https://api.anthropic.com", fwdRec, CassetteFor(dir, "api.anthropic.com")},
	}
}

func callFault(client *http.Client, url, fault string) (*http.Response, []byte, error) {
	resp, err := client.Post(url+"/v1/messages", "application/json", strings.NewReader(`{"fault":"`+fault+`"}`))
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// Each fault reaches the client as it would without llmtck, the cassette
// records what happened, and the interactions before it are untouched.
func TestFaults(t *testing.T) { testFaults(t) }

// The same faults with each body kept by a keeper from its first piece on,
// as a large stream's is.
func TestFaultsWithKeeper(t *testing.T) {
	old := keepAside
	keepAside = 0
	t.Cleanup(func() { keepAside = old }) // after the servers have closed
	testFaults(t)
}

func testFaults(t *testing.T) {
	cancelled := make(chan struct{}, 4)
	h := faultyProvider(cancelled)
	direct := httptest.NewServer(h)
	defer direct.Close()
	for _, rt := range routes(t, h) {
		t.Run(rt.name, func(t *testing.T) {
			_, okBody, err := callFault(rt.client, rt.url, "ok")
			if err != nil {
				t.Fatal(err)
			}

			// The upstream drops the connection mid-stream.
			_, directBody, directErr := callFault(direct.Client(), direct.URL, "cut")
			_, body, err := callFault(rt.client, rt.url, "cut")
			if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(directErr, io.ErrUnexpectedEOF) {
				t.Errorf("cut stream: client error %v, without llmtck %v; want unexpected EOF for both", err, directErr)
			}
			if string(body) != string(directBody) {
				t.Errorf("cut stream: client got %q, without llmtck %q", body, directBody)
			}

			// Error statuses pass through with their bodies and headers.
			for _, code := range []string{"429", "500", "529"} {
				dresp, dbody, _ := callFault(direct.Client(), direct.URL, code)
				resp, body, err := callFault(rt.client, rt.url, code)
				if err != nil || resp.StatusCode != dresp.StatusCode || string(body) != string(dbody) || resp.Header.Get("Retry-After") != "7" {
					t.Errorf("%s: got %v %v %q, without llmtck %d %q", code, resp.Status, err, body, dresp.StatusCode, dbody)
				}
			}

			// The upstream ends the body cleanly but early: no error for the
			// client, and the cassette says the stream is incomplete.
			if _, _, err := callFault(rt.client, rt.url, "short"); err != nil {
				t.Errorf("short stream: %v", err)
			}

			// The client hangs up mid-stream: the upstream call is cancelled too.
			ctx, cancel := context.WithCancel(context.Background())
			req, _ := http.NewRequestWithContext(ctx, "POST", rt.url+"/v1/messages", strings.NewReader(`{"fault":"slow"}`))
			resp, err := rt.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.ReadFull(resp.Body, make([]byte, 100))
			cancel()
			resp.Body.Close()
			select {
			case <-cancelled:
			case <-time.After(10 * time.Second):
				t.Fatal("the upstream call went on after the client hung up")
			}

			// Wait for the hung-up call to be written, then close.
			waitFor(t, func() bool { n, _ := countInteractions(rt.path); return n == 7 })
			if err := rt.rec.Close(); err != nil {
				t.Fatal(err)
			}
			c := loadStock(t, rt.path)
			if len(c.Interactions) != 7 {
				t.Fatalf("%d interactions, want 7", len(c.Interactions))
			}
			if c.Interactions[0].Response.Body != string(okBody) || c.Interactions[0].Response.Headers.Get(headerTruncated) != "" {
				t.Errorf("the first interaction changed: %q", c.Interactions[0].Response.Body)
			}
			cut := c.Interactions[1].Response
			if cut.Body != string(directBody) || !strings.Contains(cut.Headers.Get(headerTruncated), "upstream broke off") {
				t.Errorf("cut stream recorded as %q with %s: %q", cut.Body, headerTruncated, cut.Headers.Get(headerTruncated))
			}
			for i, code := range []int{429, 500, 529} {
				if got := c.Interactions[2+i].Response.Code; got != code {
					t.Errorf("interaction %d has status %d, want %d", 2+i, got, code)
				}
			}
			short := c.Interactions[5].Response
			if short.Headers.Get(headerIncomplete) == "" || short.Headers.Get(headerTruncated) != "" {
				t.Errorf("short stream recorded with headers %v", short.Headers)
			}
			gone := c.Interactions[6].Response
			if !strings.Contains(gone.Headers.Get(headerTruncated), "client went away") || !strings.HasPrefix(gone.Body, "event: content_block_delta") {
				t.Errorf("hung-up stream recorded as %q with %s: %q", gone.Body[:min(60, len(gone.Body))], headerTruncated, gone.Headers.Get(headerTruncated))
			}
		})
	}
}

func countInteractions(path string) (int, error) {
	c, err := cassette.Load(path)
	if err != nil {
		return 0, err
	}
	return len(c.Interactions), nil
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("timed out")
}

// An unreachable upstream: the client gets a 502 in the wire's error
// envelope naming the upstream and the error, and the cassette gains
// nothing that replay could later serve.
func TestUnreachableUpstream(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	path := filepath.Join(t.TempDir(), "dead.yaml")
	var logs syncBuffer
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Log: &logs})
	front := httptest.NewServer(NewHandler(rec, &url.URL{Scheme: "http", Host: dead}))
	defer front.Close()
	if _, _, err := callFault(&http.Client{}, "http://"+dead, "ok"); err == nil {
		t.Fatal("the dead address answered")
	}
	resp, body, err := callFault(&http.Client{}, front.URL, "ok")
	if err != nil {
		t.Fatalf("through the recorder the connection failed: %v; want a 502", err)
	}
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), dead) || !strings.Contains(string(body), "connection refused") ||
		!strings.HasPrefix(string(body), `{"type":"error","error":{"type":"invalid_request_error","message":"llmtck: the upstream`) {
		t.Fatalf("client got %d %s", resp.StatusCode, body)
	}
	rec.Close()
	if c := loadStock(t, path); len(c.Interactions) != 0 {
		t.Fatalf("the cassette recorded the failure: %+v", c.Interactions)
	}
	if !strings.Contains(logs.String(), "record POST "+dead+"/v1/messages 502") || !strings.Contains(logs.String(), "NOT RECORDED") {
		t.Errorf("log: %s", logs.String())
	}

	// A cassette an older llmtck wrote with a failure (status 0) is still
	// replayed as that failure.
	old := filepath.Join(t.TempDir(), "old.yaml")
	if err := os.WriteFile(old, []byte("---\nversion: 1\ninteractions:\n- request:\n    body: '{\"fault\":\"ok\"}'\n    url: http://"+dead+"/v1/messages\n    method: POST\n  response:\n    status: \"\"\n    code: 0\n    headers:\n      X-Llmtck-Error:\n      - connection refused\n    body: \"\"\n    duration: 0s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: old})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()
	if resp, _, err := callFault(&http.Client{}, back.URL, "ok"); err == nil {
		t.Fatalf("replay answered %s, want the recorded failed connection", resp.Status)
	}
}

// Close waits for a call whose response is still streaming, so stopping a
// recorder (SIGINT while a client reads) does not lose the call: a CONNECT
// tunnel is hijacked, and http.Server.Shutdown does not wait for it.
func TestCloseWaitsForCallsInFlight(t *testing.T) {
	release := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("event: message_start\ndata: {\"type\":\"message_start\"}\n\n"))
		w.(http.Flusher).Flush()
		<-release
		w.Write([]byte("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"))
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "inflight.yaml")
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free() // before the servers close, or they wait for the handler
	resp, err := front.Client().Post(front.URL+"/v1/messages", "application/json", strings.NewReader(`{"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- rec.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) while a call was in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	free()
	io.ReadAll(resp.Body)
	resp.Body.Close()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if c := loadStock(t, path); len(c.Interactions) != 1 || !strings.Contains(c.Interactions[0].Response.Body, "message_stop") {
		t.Fatalf("the call in flight was not recorded whole: %d interactions", len(c.Interactions))
	}
}

// Two recorders of one cassette would tear each other's interactions: the
// second is refused at once, naming the lock and who holds it, and the
// cassette is free again once the first closes.
func TestOneRecorderPerCassette(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.yaml")
	first := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
	for _, mode := range []Mode{ModeRecord, ModeAuto} {
		_, err := NewRecorder(Options{Mode: mode, Cassette: path})
		if !errors.Is(err, errLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) || !strings.Contains(err.Error(), path+".lock") {
			t.Fatalf("second recorder (%s): %v", mode, err)
		}
	}
	// Replay only reads: it may run beside a recorder.
	if r, err := NewRecorder(Options{Mode: ModeReplay, Cassette: path}); err != nil {
		t.Fatalf("replay beside a recorder: %v", err)
	} else {
		r.Close()
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Errorf("the lock file is left behind: %v", err)
	}
	again := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
}
