package proxy

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/redact"
)

// Made up, with the shape of real ones.
const (
	fakeAWSSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "Q3x9LmP0aB" // 40 characters, not AWS's documented example
	fakeOpenAIKey = "sk-proj-Ab3dEf5GhI7jKl9MnO1pQr3StU5vWx7YzA9bCd1EfG3hIj5KlM7nOp9QrS1tUv3WxY5zAb7CdE9fGh1IjK3lMn5OpQ7rSt9UvW1xYz3AbC5dEf7GhI9jKl1MnO3pQ"
	fakeGoogleKey = "AIzaSyD3x9LmP0aB7cD2eF4gH6iJ8kL0mN2oP4q"
	fakeJWT       = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

// Credentials are masked before anything is written, wherever the policy
// says they live; a token shape left anywhere else stops the interaction
// from being written at all, and the log names the field.
func TestSecretsNeverReachDisk(t *testing.T) {
	var jwtInBody bool
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Set-Cookie", "__cf_bm=secret-cookie; path=/")
		w.Header().Set("Openai-Organization", "org-secret")
		w.Header().Set("Content-Type", "application/json")
		if jwtInBody {
			w.Write([]byte(`{"token":"` + fakeJWT + `"}`))
			return
		}
		w.Write([]byte(`{"id":"chatcmpl-1"}`))
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "secrets.yaml")
	var logs syncBuffer
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, RedactHeaders: []string{"X-Tenant-Token"}, Log: &logs})
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()

	// Known places: masked, and recorded.
	resp, _ := post(t, front.Client(), front.URL+"/v1beta/models/gemini-2.5-pro:generateContent?key="+fakeGoogleKey, []byte(`{"contents":[]}`),
		"Authorization", "Bearer "+fakeOpenAIKey, "X-Goog-Api-Key", fakeGoogleKey, "X-Tenant-Token", "tenant-42", "Openai-Project", "proj_secret")
	if resp.StatusCode != 200 || resp.Header.Get("Set-Cookie") == "" {
		t.Fatalf("the client must still get the real response: %d %v", resp.StatusCode, resp.Header)
	}
	// Unknown places: refused, but the client is served all the same.
	for _, tc := range []struct{ field, body string }{
		{"request.body", `{"messages":[{"role":"user","content":"my key is ` + fakeOpenAIKey + `"}]}`},
		{"request.headers.X-Debug", ``},
		{"response.body", `{"jwt":true}`},
	} {
		var header []string
		if tc.field == "request.headers.X-Debug" {
			header = []string{"X-Debug", "copy of " + fakeOpenAIKey}
		}
		jwtInBody = tc.field == "response.body"
		if resp, _ := post(t, front.Client(), front.URL+"/v1/chat/completions", []byte(tc.body), header...); resp.StatusCode != 200 {
			t.Fatalf("%s: the client got %d", tc.field, resp.StatusCode)
		}
		if !strings.Contains(logs.String(), "NOT RECORDED: "+tc.field+" holds what looks like") {
			t.Errorf("the log does not name %s:\n%s", tc.field, logs.String())
		}
	}
	// The session lost calls: Close says how many and why.
	if err := rec.Close(); err == nil || !strings.Contains(err.Error(), "3 calls were not recorded") || !strings.Contains(err.Error(), "3 it holds a credential") {
		t.Fatalf("Close: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{fakeOpenAIKey, fakeGoogleKey, fakeJWT, "tenant-42", "proj_secret", "secret-cookie", "org-secret", "sk-proj", "AIza", "eyJ"} {
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("the cassette holds %q", secret)
		}
	}
	c := loadStock(t, path)
	if len(c.Interactions) != 1 {
		t.Fatalf("%d interactions written, want only the clean one", len(c.Interactions))
	}
	in := c.Interactions[0]
	if !strings.HasSuffix(in.Request.URL, "?key="+redact.Mask) || in.Request.Headers.Get("Authorization") != redact.Mask || in.Request.Headers.Get("X-Tenant-Token") != redact.Mask {
		t.Errorf("not masked: %s %v", in.Request.URL, in.Request.Headers)
	}

	// Replay matches on the masked request, so the scrubbed cassette replays
	// to a client that sends its real key.
	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: path})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()
	if resp, _ := post(t, back.Client(), back.URL+"/v1beta/models/gemini-2.5-pro:generateContent?key=AIzaSyAnotherKeyOfThirtyFiveCharsXXXXXX", []byte(`{"contents":[]}`)); resp.StatusCode != 200 {
		t.Fatalf("the redacted cassette did not replay: %d", resp.StatusCode)
	}
}

// The scanner as the recorder runs it: a key in a gzip-encoded request body
// or right after a JSON escape is not written, prose that merely resembles
// a key is, and the log line never prints a key the URL carries.
func TestRecorderScansWhatItWrites(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"chatcmpl-1"}`))
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "scan.yaml")
	var logs syncBuffer
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Log: &logs})
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()

	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(`{"messages":[{"role":"user","content":"use ` + fakeOpenAIKey + `"}]}`))
	zw.Close()
	prose := `{"messages":[{"role":"user","content":"we use sk-learn for the pipeline, Version 1.4"}]}`
	calls := []struct {
		name, path string
		body       []byte
		header     []string
		recorded   bool
	}{
		{"gzip body", "/v1/chat/completions", zipped.Bytes(), []string{"Content-Encoding", "gzip"}, false},
		{"after \\n", "/v1/chat/completions", []byte(`{"messages":[{"role":"user","content":"key:\n` + fakeOpenAIKey + `"}]}`), nil, false},
		{"url path", "/v1/keys/" + fakeOpenAIKey + "/chat/completions", []byte(`{}`), nil, false},
		{"prose", "/v1/chat/completions", []byte(prose), nil, true},
	}
	for _, tc := range calls {
		before := strings.Count(logs.String(), "NOT RECORDED")
		if resp, _ := post(t, front.Client(), front.URL+tc.path, tc.body, tc.header...); resp.StatusCode != 200 {
			t.Fatalf("%s: the client got %d", tc.name, resp.StatusCode)
		}
		refused := strings.Count(logs.String(), "NOT RECORDED") > before
		if refused == tc.recorded {
			t.Errorf("%s: recorded=%v, want %v\n%s", tc.name, !refused, tc.recorded, logs.String())
		}
	}
	// The session lost calls: Close says how many and why.
	if err := rec.Close(); err == nil || !strings.Contains(err.Error(), "3 calls were not recorded") || !strings.Contains(err.Error(), "3 it holds a credential") {
		t.Fatalf("Close: %v", err)
	}
	if strings.Contains(logs.String(), fakeOpenAIKey[:24]) {
		t.Errorf("the log prints the key:\n%s", logs.String())
	}
	if c := loadStock(t, path); len(c.Interactions) != 1 || !strings.Contains(c.Interactions[0].Request.Body, "sk-learn") {
		t.Errorf("want only the prose call recorded, got %d interactions", len(c.Interactions))
	}

	// A replay miss shows how the request differs, with the key masked in
	// the 404 body and in the log.
	logs = syncBuffer{}
	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: path, Log: &logs})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()
	resp, body := post(t, back.Client(), back.URL+"/v1/chat/completions", []byte(`{"messages":[{"role":"user","content":"`+fakeOpenAIKey+`"}]}`))
	if resp.StatusCode != 404 || !strings.Contains(string(body), "content") {
		t.Fatalf("want a 404 naming the difference, got %d %s", resp.StatusCode, body)
	}
	for where, text := range map[string]string{"404 body": string(body), "log": logs.String()} {
		if strings.Contains(text, fakeOpenAIKey[:24]) {
			t.Errorf("the %s prints the key:\n%s", where, text)
		}
	}
}

// An answer that holds a credential is not recorded, and still reaches its
// client whole, through either route: behind the forward proxy a JSON
// answer sent chunked is read whole before it is sent on, and what is kept
// for the cassette stops at the key.
func TestAnAnswerHoldingAKeyReachesTheClientWhole(t *testing.T) {
	head := `{"id":"msg_1","type":"message","content":[{"type":"text","text":"the key is ` + fakeOpenAIKey + ` and`
	answer := head + ` that was all"}]}`
	answeredNotRecorded(t, answer, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, head)
		http.NewResponseController(w).Flush() // chunked, the key in the first piece
		io.WriteString(w, answer[len(head):])
	}))
}

// An answer holding an AWS secret access key, known by its name rather than
// a shape the streaming scan looks for, is not recorded either.
func TestAnAnswerHoldingANamedKeyIsNotRecorded(t *testing.T) {
	answer := `{"id":"msg_1","type":"message","content":[{"type":"text","text":"aws_secret_access_key = ` + fakeAWSSecret + `"}]}`
	answeredNotRecorded(t, answer, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer)
	}))
}

// answeredNotRecorded calls an upstream that answers with h through each
// route, and fails unless the client gets answer whole and Close says the
// call was not recorded for a credential.
func answeredNotRecorded(t *testing.T, answer string, h http.Handler) {
	t.Helper()
	for _, rt := range routes(t, h) {
		t.Run(rt.name, func(t *testing.T) {
			resp, body, err := callFault(rt.client, rt.url, "")
			if err != nil || resp.StatusCode != 200 || string(body) != answer {
				t.Fatalf("the client got %v %q, want 200 and the whole answer", err, body)
			}
			if err := rt.rec.Close(); err == nil || !strings.Contains(err.Error(), "it holds a credential") {
				t.Fatalf("Close: %v, want the call not recorded for the credential", err)
			}
		})
	}
}
