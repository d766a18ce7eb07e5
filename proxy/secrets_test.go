package proxy

import (
	"bytes"
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
	policy := redact.Default().WithHeaders("X-Tenant-Token")
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Redact: &policy, Log: &logs})
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
	if err := rec.Close(); err != nil {
		t.Fatal(err)
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
