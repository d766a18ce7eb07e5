package cassette

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dnaeon/go-vcr/v2/recorder"
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRubyVCR(t *testing.T) {
	c := mustLoad(t, "testdata/rubyvcr.yml")
	if c.Format != FormatRubyVCR || len(c.Interactions) != 3 {
		t.Fatalf("format %s, %d interactions", c.Format, len(c.Interactions))
	}
	in := c.Interactions[0]
	if in.Request.Method != "POST" || in.Request.URL != "https://api.openai.com/v1/chat/completions" {
		t.Errorf("request %s %s", in.Request.Method, in.Request.URL)
	}
	if got := string(in.Request.Body); got != `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Say hi"}]}` {
		t.Errorf("request body %s", got)
	}
	// `string: !binary |-` is Ruby's tag for base64.
	if got := string(in.Response.Body); !strings.HasPrefix(got, `{"id":"chatcmpl-9abc",`) {
		t.Errorf("!binary body not decoded: %q", got)
	}
	if in.Response.StatusText != "200 OK" || in.Response.Header.Get("Openai-Processing-Ms") != "312" {
		t.Errorf("status %q headers %v", in.Response.StatusText, in.Response.Header)
	}
	// base64_string (VCR's preserve_exact_body_bytes), with an empty message.
	want := readFile(t, "testdata/rubyvcr_sse.txt")
	in = c.Interactions[1]
	if !bytes.Equal(in.Response.Body, want) {
		t.Errorf("base64_string body\n got %q\nwant %q", in.Response.Body, want)
	}
	if in.Response.StatusText != "200 OK" {
		t.Errorf("empty message should fall back to the standard phrase, got %q", in.Response.StatusText)
	}
	in = c.Interactions[2]
	if in.Request.Method != "GET" || in.Request.Body != nil || in.Response.Status != 404 {
		t.Errorf("interaction 2: %s body %q status %d", in.Request.Method, in.Request.Body, in.Response.Status)
	}
	if got := string(in.Response.Body); !strings.Contains(got, `The model 'gpt-4o-mini-x' does not exist`) {
		t.Errorf("single-quoted '' not unescaped: %s", got)
	}
	roundTrip(t, c)
}

// R's vcr writes headers as single strings and the status as a number.
func TestRVCR(t *testing.T) {
	c := mustLoad(t, "testdata/rvcr.yml")
	if c.Format != FormatRubyVCR || len(c.Interactions) != 1 {
		t.Fatalf("format %s, %d interactions", c.Format, len(c.Interactions))
	}
	in := c.Interactions[0]
	if in.Response.Status != 200 || in.Response.StatusText != "200 OK" {
		t.Errorf("status %d %q", in.Response.Status, in.Response.StatusText)
	}
	if got := in.Request.Header.Get("X-Goog-Api-Key"); got != "<GEMINI_API_KEY>" {
		t.Errorf("scalar header value: %q", got)
	}
	if got := in.Response.Header.Get("Content-Type"); got != "application/json; charset=UTF-8" {
		t.Errorf("lower-case header key not made canonical: %v", in.Response.Header)
	}
	if in.Request.Body != nil {
		t.Errorf("body: ~ should be empty, got %q", in.Request.Body)
	}
	roundTrip(t, c)
}

func TestHAR(t *testing.T) {
	c := mustLoad(t, "testdata/devtools.har")
	if c.Format != FormatHAR || len(c.Interactions) != 2 {
		t.Fatalf("format %s, %d interactions", c.Format, len(c.Interactions))
	}
	in := c.Interactions[0]
	if in.Request.Method != "POST" || in.Request.URL != "https://api.openai.com/v1/responses" {
		t.Errorf("request %s %s", in.Request.Method, in.Request.URL)
	}
	if _, ok := in.Request.Header[":authority"]; ok {
		t.Error("HTTP/2 pseudo-header kept")
	}
	if got := in.Request.Header.Get("Authorization"); got != "Bearer <redacted>" {
		t.Errorf("Authorization %q", got)
	}
	if got := string(in.Request.Body); got != `{"model":"o4-mini","input":"2+2?","stream":true,"store":false}` {
		t.Errorf("postData.text %s", got)
	}
	if !strings.HasPrefix(string(in.Response.Body), "event: response.created\ndata: {") {
		t.Errorf("content.text %q", in.Response.Body)
	}
	if in.Response.StatusText != "200 OK" || in.Response.Duration != 812500*time.Microsecond {
		t.Errorf("status %q duration %v", in.Response.StatusText, in.Response.Duration)
	}
	in = c.Interactions[1]
	if got := string(in.Request.Body); got != "lang=en&q=a+b" {
		t.Errorf("postData.params %q", got)
	}
	if got := string(in.Response.Body); got != `{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}` {
		t.Errorf("base64 content %q", got)
	}
	if in.Response.StatusText != "429 Too Many Requests" {
		t.Errorf("status %q", in.Response.StatusText)
	}
	roundTrip(t, c)
}

// go-vcr v1 wrote `duration: ""`.
func TestGoVCRv1Old(t *testing.T) {
	c := mustLoad(t, "testdata/govcr_v1.yaml")
	if c.Format != FormatGoVCRv1 || len(c.Interactions) != 1 {
		t.Fatalf("format %s, %d interactions", c.Format, len(c.Interactions))
	}
	in := c.Interactions[0]
	if in.Response.Duration != 0 || in.Response.Header.Get("Openai-Version") != "2020-10-01" {
		t.Errorf("duration %v, headers %v", in.Response.Duration, in.Response.Header)
	}
	roundTrip(t, c)
}

// A parsed_body mapping is the JSON it stands for, in document order, with
// YAML's scalar types turned into JSON's.
func TestParsedBodyScalars(t *testing.T) {
	c := mustLoad(t, "testdata/vcrpy_parsed_body.yaml")
	if c.Format != FormatVCRPy {
		t.Fatalf("format %s", c.Format)
	}
	const want = `{"zeta":"first key stays first","as_string":"421","as_int":421,"as_float":1.5,` +
		`"big":123456789012345678901234567890,"hex":31,"plus":5,"bool":true,"none":null,"tilde":null,` +
		`"quoted_true":"true","inf":".inf","text":"line one\nline \"two\" <b>&</b> \u2028 café",` +
		`"list":[1,{"a":[],"b":{}}],"nested key: with colon":{"x":[1,2]}}`
	if got := string(c.Interactions[0].Request.Body); got != want {
		t.Errorf("parsed_body\n got %s\nwant %s", got, want)
	}
	if got := string(c.Interactions[0].Response.Body); got != `{"ok":true}` {
		t.Errorf("response %s", got)
	}
	roundTrip(t, c)
}

// sseHandler serves a real streamed response, flushing each event, and a
// gzip-compressed JSON error, like the providers do.
func sseHandler(events []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"fail"`)) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Encoding", "gzip")
			w.WriteHeader(http.StatusBadRequest)
			zw := gzip.NewWriter(w)
			io.WriteString(zw, `{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate"}}`)
			zw.Close()
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range events {
			io.WriteString(w, e)
			w.(http.Flusher).Flush()
		}
	})
}

var loopbackEvents = []string{
	"event: message_start\ndata: {\"type\":\"message_start\"}\n\n",
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"tab\\there \\u2028 <&>\"}}\n\n",
	": keep-alive comment\r\n\r\n",
	"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
}

// Stock go-vcr v2.1.0 records real loopback traffic; we read its file, and
// go-vcr replays the file we write from it to a real http.Client.
func TestGoVCRRecorderInterop(t *testing.T) {
	srv := httptest.NewServer(sseHandler(loopbackEvents))
	defer srv.Close()
	dir := t.TempDir()
	name := filepath.Join(dir, "recorded")
	rec, err := recorder.NewAsMode(name, recorder.ModeRecording, http.DefaultTransport)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: rec}
	reqs := []string{`{"model":"claude","stream":true}`, `{"model":"claude","fail":true}`}
	for _, body := range reqs {
		resp, err := client.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}

	c := mustLoad(t, name+".yaml")
	if c.Format != FormatGoVCRv1 || len(c.Interactions) != 2 {
		t.Fatalf("format %s, %d interactions", c.Format, len(c.Interactions))
	}
	if got, want := string(c.Interactions[0].Response.Body), strings.Join(loopbackEvents, ""); got != want {
		t.Errorf("recorded SSE body\n got %q\nwant %q", got, want)
	}
	if c.Interactions[0].Response.Duration <= 0 {
		t.Errorf("duration %v", c.Interactions[0].Response.Duration)
	}
	if got := string(c.Interactions[1].Request.Body); got != reqs[1] {
		t.Errorf("request body %q", got)
	}
	if c.Interactions[1].Response.Status != 400 || !strings.Contains(string(c.Interactions[1].Response.Body), "roles must alternate") {
		t.Errorf("error response %d %q", c.Interactions[1].Response.Status, c.Interactions[1].Response.Body)
	}

	// Write it our way and let go-vcr serve it back.
	ours := filepath.Join(dir, "ours")
	if err := Save(ours+".yaml", c); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, c)
	rep, err := recorder.NewAsMode(ours, recorder.ModeReplaying, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Stop()
	client = &http.Client{Transport: rep}
	for i, body := range reqs {
		resp, err := client.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want := c.Interactions[i].Response
		if resp.StatusCode != want.Status || !bytes.Equal(got, want.Body) {
			t.Errorf("replay %d: %d %q, want %d %q", i, resp.StatusCode, got, want.Status, want.Body)
		}
	}
}

// recordHTTPRR captures real loopback traffic the way httprr does: the
// request in proxy form and the response as the client got it (chunked when
// the server streamed).
func recordHTTPRR(t *testing.T, srv *httptest.Server, bodies []string) []byte {
	t.Helper()
	var trace bytes.Buffer
	trace.WriteString(httprrMagic)
	for _, body := range bodies {
		req, err := http.NewRequest("POST", srv.URL+"/v1/chat/completions?x=1", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer test-api-key")
		// Asked for explicitly, so the transport leaves gzip bodies as sent.
		req.Header.Set("Accept-Encoding", "gzip")
		var reqBuf bytes.Buffer
		if err := req.WriteProxy(&reqBuf); err != nil {
			t.Fatal(err)
		}
		req.Body = io.NopCloser(strings.NewReader(body))
		resp, err := srv.Client().Transport.(*http.Transport).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		respBytes, err := httputil.DumpResponse(resp, true)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		fmt.Fprintf(&trace, "%d %d\n", reqBuf.Len(), len(respBytes))
		trace.Write(reqBuf.Bytes())
		trace.Write(respBytes)
	}
	return trace.Bytes()
}

func TestHTTPRRChunkedLoopback(t *testing.T) {
	srv := httptest.NewServer(sseHandler(loopbackEvents))
	defer srv.Close()
	trace := recordHTTPRR(t, srv, []string{`{"stream":true}`, `{"fail":true}`})
	if !bytes.Contains(trace, []byte("Transfer-Encoding: chunked")) {
		t.Fatalf("the streamed response was not chunked:\n%s", trace)
	}
	c, err := Parse("loop.httprr", trace)
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatHTTPRR || len(c.Interactions) != 2 {
		t.Fatalf("format %s, %d interactions", c.Format, len(c.Interactions))
	}
	in := c.Interactions[0]
	if got, want := string(in.Response.Body), strings.Join(loopbackEvents, ""); got != want {
		t.Errorf("chunked body not decoded\n got %q\nwant %q", got, want)
	}
	if in.Request.URL != srv.URL+"/v1/chat/completions?x=1" || string(in.Request.Body) != `{"stream":true}` {
		t.Errorf("request %s %q", in.Request.URL, in.Request.Body)
	}
	if in.Response.Header.Get("Transfer-Encoding") != "" {
		t.Error("Transfer-Encoding kept over a decoded body")
	}
	if !bytes.Contains(trace, []byte("Content-Encoding: gzip")) || bytes.Contains(trace, []byte("roles must alternate")) {
		t.Fatal("the error response was not recorded gzip-compressed")
	}
	in = c.Interactions[1]
	if !strings.HasPrefix(string(in.Response.Body), `{"type":"error"`) || in.Response.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("gzip body not decoded: %q %v", in.Response.Body, in.Response.Header)
	}
	data := roundTrip(t, c)
	if bytes.Contains(data, []byte("Content-Encoding")) {
		t.Error("Content-Encoding: gzip written over a decoded body")
	}
}
