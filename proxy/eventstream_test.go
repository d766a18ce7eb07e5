package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/eventstream"
)

// A real Bedrock ConverseStream (Claude with reasoning), an AWS event stream.
const bedrockStream = "pydantic__pydantic-ai/tests__models__cassettes__test_bedrock__test_bedrock_model_thinking_part_stream.yaml"

// Credentials as the AWS SDKs sign a Bedrock call: SigV4 Authorization with
// a temporary key, and the session token.
var sigV4 = []string{
	"Authorization", "AWS4-HMAC-SHA256 Credential=ASIAQ3EXAMPLE7KEYID4X/20251125/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7",
	"X-Amz-Security-Token", "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQDsecretsessiontokenvalue",
	"X-Amz-Date", "20251125T031500Z",
}

// frameTimes reads an event-stream body and returns when each frame arrived whole.
func frameTimes(t *testing.T, body io.Reader) ([]time.Time, []byte) {
	t.Helper()
	var times []time.Time
	var all []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := body.Read(buf)
		now := time.Now()
		all = append(all, buf[:n]...)
		starts, _ := eventstream.Offsets(all)
		for len(times) < len(starts) {
			times = append(times, now)
		}
		if err == io.EOF {
			return times, all
		}
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
	}
}

// TestBedrockEventStream records a ConverseStream through the base-URL
// recorder with the live linter on, then replays it: frames pass through as
// they arrive, SigV4 credentials never reach the cassette, the body comes
// back byte for byte, and recorded timing spaces the frames as they came.
func TestBedrockEventStream(t *testing.T) {
	src, err := cassette.Load(filepath.Join(corpus.SetDir(t, "wave2"), bedrockStream))
	if err != nil {
		t.Fatal(err)
	}
	in := src.Interactions[0]
	frames, _ := eventstream.Offsets(in.Response.Body)
	if len(frames) < 8 {
		t.Fatalf("the recording has %d frames", len(frames))
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", eventStreamType)
		w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(w)
		for i, s := range frames {
			e := len(in.Response.Body)
			if i+1 < len(frames) {
				e = frames[i+1]
			}
			if i > 0 {
				time.Sleep(eventGap)
			}
			w.Write(in.Response.Body[s:e])
			rc.Flush()
		}
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "bedrock.yaml")
	u, _ := url.Parse(up.URL)
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Judge: catalogue})
	front := httptest.NewServer(NewHandler(rec, u))
	req, _ := http.NewRequest("POST", front.URL+strings.TrimPrefix(in.Request.URL, "https://bedrock-runtime.us-east-1.amazonaws.com"), bytes.NewReader(in.Request.Body))
	for i := 0; i+1 < len(sigV4); i += 2 {
		req.Header.Set(sigV4[i], sigV4[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	times, body := frameTimes(t, resp.Body)
	resp.Body.Close()
	front.Close()
	checkGaps(t, "recording a Bedrock event stream", times)
	if !bytes.Equal(body, in.Response.Body) {
		t.Fatal("the event stream changed on the way")
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"ASIAQ3EXAMPLE7KEYID4X", "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7", "secretsessiontokenvalue"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("the cassette holds the credential %s", secret)
		}
	}
	if !bytes.Contains(raw, []byte("!!binary")) {
		t.Error("the event stream is not stored as !!binary")
	}
	c, err := cassette.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	got := c.Interactions[0]
	if !bytes.Equal(got.Response.Body, in.Response.Body) {
		t.Fatal("the cassette's body is not the stream's bytes")
	}
	if n := len(got.Response.EventOffsets); n != len(frames)+1 { // each frame, then the end of the body
		t.Fatalf("%d offsets recorded, want %d frames and the end", n, len(frames))
	}
	loadStock(t, path) // stock go-vcr reads it

	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: path, Timing: Timing{Scale: 1}, Judge: catalogue})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()
	req, _ = http.NewRequest("POST", back.URL+strings.TrimPrefix(in.Request.URL, "https://bedrock-runtime.us-east-1.amazonaws.com"), bytes.NewReader(in.Request.Body))
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	times, body = frameTimes(t, resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != eventStreamType {
		t.Errorf("replayed Content-Type %q", ct)
	}
	checkGaps(t, "replay --timing recorded of a Bedrock event stream", times)
	if !bytes.Equal(body, in.Response.Body) {
		t.Fatal("the replayed event stream differs from the recording")
	}
}
