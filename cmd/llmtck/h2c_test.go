package main

import (
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// h2cClient speaks HTTP/2 cleartext with prior knowledge, as the AWS SDK
// for JavaScript v3 does to an http:// endpoint.
func h2cClient() *http.Client {
	p := new(http.Protocols)
	p.SetUnencryptedHTTP2(true)
	return &http.Client{Transport: &http.Transport{Protocols: p}}
}

// replay --scenario and the recorder's listener answer an h2c client.
func TestServerVerbsServeH2C(t *testing.T) {
	sim := startServer(t, "replay", "--scenario", "bedrock/thinking-tool-loop")
	resp, err := h2cClient().Post(sim.addr+"/model/m/invoke", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("replay --scenario over h2c: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Proto != "HTTP/2.0" || resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "UnknownOperationException") {
		t.Errorf("replay --scenario answered %s %d %s", resp.Proto, resp.StatusCode, body)
	}
	if !strings.Contains(sim.stderr.String(), "/model/MODEL/converse") {
		t.Errorf("the startup line does not name Bedrock's path:\n%s", sim.stderr)
	}
	sim.stop(t, os.Interrupt)

	up := h2cUpstream(t)
	rec := startServer(t, "record", "--upstream", up, "--cassette", filepath.Join(t.TempDir(), "c.yaml"))
	resp, err = h2cClient().Post(rec.addr+"/v1/messages", "application/json", strings.NewReader(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatalf("record over h2c: %v", err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Proto != "HTTP/2.0" || resp.StatusCode != http.StatusOK || string(body) != `{"ok":true}` {
		t.Errorf("record answered %s %d %s", resp.Proto, resp.StatusCode, body)
	}
	rec.stop(t, os.Interrupt)
}

// h2cUpstream is a plain provider stand-in for the recorder to forward to.
func h2cUpstream(t *testing.T) string {
	t.Helper()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	})}
	ts := newLoopbackServer(t, srv)
	return ts
}

func newLoopbackServer(t *testing.T, srv *http.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}
