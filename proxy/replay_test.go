package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
)

// Every recording in the corpus, whatever tool wrote it, replays: each
// recorded request gets its recorded status and body back, byte for byte,
// and the log counts the tool calls the whole call decodes to.
func TestReplayEveryCorpusRecording(t *testing.T) {
	for _, file := range corpus.Files(t) {
		c, err := cassette.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		if c.Interactions[0].Request.Method == "" {
			continue // response-only fixtures have no request to match
		}
		t.Run(corpus.Name(t, file), func(t *testing.T) {
			var logs syncBuffer
			rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: file, Upstream: failingUpstream(t), Log: &logs})
			back := httptest.NewServer(NewHandler(rp, nil))
			var tools []string // what the log should say: the whole call decoded
			for i, in := range c.Interactions {
				u, _ := url.Parse(in.Request.URL)
				req, _ := http.NewRequest(in.Request.Method, back.URL+u.RequestURI(), bytes.NewReader(in.Request.Body))
				resp, body := do(t, req)
				if resp.StatusCode != in.Response.Status || !bytes.Equal(body, in.Response.Body) {
					t.Fatalf("interaction %d: replayed %d with %d bytes, recorded %d with %d bytes", i, resp.StatusCode, len(body), in.Response.Status, len(in.Response.Body))
				}
				ex := providers.Decode(i, providers.Call{Method: in.Request.Method, URL: in.Request.URL, RequestBody: in.Request.Body,
					Status: in.Response.Status, ResponseHeader: in.Response.Header, ResponseBody: in.Response.Body})
				n := strconv.Itoa(countTools(ex.Response))
				if n == "-1" {
					n = "?" // no response decoded
				}
				tools = append(tools, "tools="+n)
			}
			back.Close() // the log is written once each call is done
			got := regexp.MustCompile(`tools=\S+`).FindAllString(logs.String(), -1)
			if d := cmp.Diff(strings.Join(tools, " "), strings.Join(got, " ")); d != "" {
				t.Errorf("the log's tool counts (-as the whole call decodes +logged):\n%s", d)
			}
		})
	}
}

func do(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	return resp, buf.Bytes()
}

// The same request recorded three times (with different JSON whitespace)
// is answered with the three recorded responses in order, then again from
// the first.
func TestReplayServesIdenticalRequestsInRecordedOrder(t *testing.T) {
	file := filepath.Join(corpus.Dir(t), chatRepeated)
	c := loadCorpus(t, chatRepeated)
	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: file})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()
	first := c.Interactions[0].Request.Body
	for round := range 2 {
		for i, in := range c.Interactions {
			_, body := post(t, back.Client(), back.URL+"/v1/chat/completions", first)
			if !bytes.Equal(body, in.Response.Body) {
				t.Fatalf("round %d, call %d: got the response of another interaction", round, i)
			}
		}
	}
}

// A request that matches nothing gets an error naming the nearest recorded
// request and the JSON paths where they differ; the log says the same.
func TestReplayMissNamesTheNearestRequest(t *testing.T) {
	c := loadCorpus(t, antThinking)
	file := filepath.Join(corpus.Dir(t), antThinking)
	var logs syncBuffer
	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: file, Log: &logs})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()

	var req map[string]any
	json.Unmarshal(c.Interactions[1].Request.Body, &req)
	req["max_tokens"] = 7
	msgs := req["messages"].([]any)
	msgs[0].(map[string]any)["content"] = "What is the weather in Lyon?"
	body, _ := json.Marshal(req)
	resp, got := post(t, back.Client(), back.URL+"/v1/messages?beta=true", body)
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("status %d, want 404", resp.StatusCode)
	}
	var e struct {
		Type  string
		Error struct{ Type, Message string }
	}
	if err := json.Unmarshal(got, &e); err != nil || e.Type != "error" {
		t.Fatalf("miss body is not an Anthropic error: %s", got)
	}
	for _, want := range []string{"interaction 1 (POST /v1/messages?beta=true)", "max_tokens: recorded 4096, got 7", "messages[0].content: recorded [{"} {
		if !strings.Contains(e.Error.Message, want) || !strings.Contains(logs.String(), want) {
			t.Errorf("miss message lacks %q:\n%s\nlog:\n%s", want, e.Error.Message, logs.String())
		}
	}
	if strings.Contains(e.Error.Message, "path:") {
		t.Errorf("the path was reported as a difference:\n%s", e.Error.Message)
	}
}

// Fields that change on every run (Anthropic's metadata.user_id, a
// per-session id in Claude Code) do not stop a match, nor does key order.
func TestReplayIgnoresVolatileFields(t *testing.T) {
	c := loadCorpus(t, antThinking)
	for i, in := range c.Interactions {
		var req map[string]any
		json.Unmarshal(in.Request.Body, &req)
		req["metadata"] = map[string]any{"user_id": fmt.Sprintf("session-a-%d", i)}
		in.Request.Body, _ = json.Marshal(req)
	}
	path := filepath.Join(t.TempDir(), "volatile.yaml")
	if err := cassette.Save(path, c); err != nil {
		t.Fatal(err)
	}
	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: path})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()
	for _, in := range c.Interactions {
		body := bytes.Replace(in.Request.Body, []byte("session-a"), []byte("session-b"), 1)
		body = append([]byte("{\n  "), body[1:]...)
		if resp, got := post(t, back.Client(), back.URL+"/v1/messages?beta=true", body); resp.StatusCode != 200 || !bytes.Equal(got, in.Response.Body) {
			t.Fatalf("a request differing only in metadata.user_id did not match: %d %s", resp.StatusCode, got)
		}
	}
}

// Replay never opens a connection: the provider's address, reachable and
// listening, sees none, and neither does any tunnel.
func TestReplayNeverTouchesTheNetwork(t *testing.T) {
	var conns atomic.Int32
	provider := httptest.NewUnstartedServer(http.NotFoundHandler())
	provider.Config.ConnState = func(net.Conn, http.ConnState) { conns.Add(1) }
	provider.StartTLS()
	defer provider.Close()
	ca, err := LoadOrCreateCA(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := loadCorpus(t, antStream)
	if err := cassette.Save(CassetteFor(dir, "api.anthropic.com"), src); err != nil {
		t.Fatal(err)
	}
	var dials atomic.Int32
	tr := upstreamToServer(provider)
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return dial(ctx, network, addr)
	}
	rp := mustRecorder(t, Options{Mode: ModeReplay, Dir: dir, Upstream: tr})
	fwd := httptest.NewServer(NewForward(rp, ForwardOptions{CA: ca, Dial: tr.DialContext}))
	defer fwd.Close()
	client := viaProxy(fwd.URL, ca)
	for _, in := range src.Interactions {
		resp, body := post(t, client, "https://api.anthropic.com/v1/messages", in.Request.Body)
		if resp.StatusCode != 200 || !bytes.Equal(body, in.Response.Body) {
			t.Fatalf("replay answered %d", resp.StatusCode)
		}
	}
	// And a miss goes nowhere either.
	if resp, _ := post(t, client, "https://api.anthropic.com/v1/messages", []byte(`{"new":true}`)); resp.StatusCode != 404 {
		t.Fatalf("miss answered %d", resp.StatusCode)
	}
	if dials.Load() != 0 || conns.Load() != 0 {
		t.Fatalf("replay dialled %d times; the provider saw %d connection events", dials.Load(), conns.Load())
	}
}

// With Check, a request that breaks a rule gets the provider's own 400 and
// error body; a good one is replayed; both show the check on their log line.
func TestReplayCheckAnswersViolationsAsTheProvider(t *testing.T) {
	c := loadCorpus(t, antThinking)
	file := filepath.Join(corpus.Dir(t), antThinking)
	var logs syncBuffer
	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: file, Check: true, Judge: catalogue, Log: &logs})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()
	for _, in := range c.Interactions {
		if resp, _ := post(t, back.Client(), back.URL+"/v1/messages?beta=true", in.Request.Body); resp.StatusCode != 200 {
			t.Fatalf("a recorded, accepted request was answered %d", resp.StatusCode)
		}
	}
	// The second turn again, with the tool_result dropped from the last message.
	var req map[string]any
	json.Unmarshal(c.Interactions[1].Request.Body, &req)
	msgs := req["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	last["content"] = []any{map[string]any{"type": "text", "text": "never mind"}}
	body, _ := json.Marshal(req)
	resp, got := post(t, back.Client(), back.URL+"/v1/messages?beta=true", body)
	if resp.StatusCode != 400 {
		t.Fatalf("status %d, want 400", resp.StatusCode)
	}
	var e struct {
		Type  string
		Error struct{ Type, Message string }
	}
	json.Unmarshal(got, &e)
	if e.Type != "error" || e.Error.Type != "invalid_request_error" || !strings.Contains(e.Error.Message, "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_") {
		t.Fatalf("body %s", got)
	}
	if !strings.Contains(logs.String(), "400 plain") || !strings.Contains(logs.String(), "lint=ANT-TOOL-001") {
		t.Errorf("log:\n%s", logs.String())
	}
}

// In auto mode a recorded call is replayed, a new one is forwarded and
// recorded, and from then on replayed too.
func TestAutoReplaysWhatItHasAndRecordsTheRest(t *testing.T) {
	src := loadCorpus(t, antThinking)
	path := filepath.Join(t.TempDir(), "auto.yaml")
	if err := cassette.Save(path, &cassette.Cassette{Interactions: src.Interactions[:1]}); err != nil {
		t.Fatal(err)
	}
	up := newProvider(t, false, &src.Interactions[1].Response)
	rec := mustRecorder(t, Options{Mode: ModeAuto, Cassette: path})
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()
	for round := range 2 {
		for i, in := range src.Interactions {
			_, body := post(t, front.Client(), front.URL+"/v1/messages?beta=true", in.Request.Body)
			if !bytes.Equal(body, in.Response.Body) {
				t.Fatalf("round %d call %d: wrong body", round, i)
			}
		}
	}
	if len(up.requests) != 1 {
		t.Fatalf("the provider saw %d calls, want only the one not recorded yet", len(up.requests))
	}
	rec.Close()
	if c := loadStock(t, path); len(c.Interactions) != 2 {
		t.Fatalf("cassette has %d interactions, want 2", len(c.Interactions))
	}
}

// A replayed response's header is the caller's own: a client that changes
// it changes no later replay, whether it called the Recorder as a transport
// or through the Handler, which takes the header it shares.
func TestReplayedHeaderIsTheCallersOwn(t *testing.T) {
	in := &cassette.Interaction{
		Request: cassette.Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages", Body: []byte(`{"model":"m"}`)},
		Response: cassette.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_1"}},
			Body: []byte(`{"id":"msg_1"}`)},
	}
	rp, back := replayOf(t, in)
	direct := &http.Client{Transport: rp}
	for i := range 3 {
		for _, via := range []struct {
			name   string
			client *http.Client
			url    string
		}{{"transport", direct, in.Request.URL}, {"handler", back.Client(), back.URL + "/v1/messages"}} {
			resp, _ := post(t, via.client, via.url, in.Request.Body)
			if got := resp.Header.Values("Request-Id"); !slices.Equal(got, []string{"req_1"}) {
				t.Fatalf("replay %d through the %s: Request-Id = %q, want [req_1]", i, via.name, got)
			}
			resp.Header["Request-Id"][0] = "changed"
			resp.Header.Add("Request-Id", "added")
			resp.Header.Set("X-Client", "mine")
		}
	}
}

// A replayed response carries none of the hop-by-hop headers its recording
// kept (those the recording's Connection header names included), through
// the Handler or as a transport, and keeps the rest; the body, due at once,
// comes whole with its length.
func TestReplayDropsHopByHopHeaders(t *testing.T) {
	body := []byte(`{"id":"msg_1","content":[{"type":"text","text":"hi"}]}`)
	in := &cassette.Interaction{
		Request: cassette.Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages", Body: []byte(`{"model":"m"}`)},
		Response: cassette.Response{Status: 200, Header: http.Header{
			"Content-Type": {"application/json"}, "Request-Id": {"req_1"},
			"Connection": {"X-Hop"}, "X-Hop": {"1"}, "Keep-Alive": {"timeout=5"}, "Proxy-Connection": {"keep-alive"},
		}, Body: body},
	}
	rp, back := replayOf(t, in)
	for _, via := range []struct {
		name   string
		client *http.Client
		url    string
	}{{"handler", back.Client(), back.URL + "/v1/messages"}, {"transport", &http.Client{Transport: rp}, in.Request.URL}} {
		resp, got := post(t, via.client, via.url, in.Request.Body)
		for _, k := range []string{"X-Hop", "Keep-Alive", "Proxy-Connection"} {
			if v, ok := resp.Header[k]; ok {
				t.Errorf("through the %s: %s: %q was replayed", via.name, k, v)
			}
		}
		if v := resp.Header.Get("Request-Id"); v != "req_1" {
			t.Errorf("through the %s: Request-Id = %q, want req_1", via.name, v)
		}
		if !bytes.Equal(got, body) || resp.ContentLength != int64(len(body)) {
			t.Errorf("through the %s: body %q (length %d), want %q with its length", via.name, got, resp.ContentLength, body)
		}
	}
}

// replayOf replays a cassette of the one interaction in, as a transport
// and behind the base-URL Handler.
func replayOf(t *testing.T, in *cassette.Interaction) (*Recorder, *httptest.Server) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "one.yaml")
	if err := cassette.Save(path, &cassette.Cassette{Interactions: []*cassette.Interaction{in}}); err != nil {
		t.Fatal(err)
	}
	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: path})
	back := httptest.NewServer(NewHandler(rp, nil))
	t.Cleanup(back.Close)
	return rp, back
}
