package redact

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/llmtck/llmtck/internal/corpus"
)

func TestHeaderMasksCredentialsAndKeepsTheRest(t *testing.T) {
	in := http.Header{
		"X-Api-Key":                 {"sk-ant-api03-abc"},
		"Authorization":             {"Bearer sk-proj-1", "Bearer second"},
		"Anthropic-Version":         {"2023-06-01"},
		"Anthropic-Beta":            {"interleaved-thinking-2025-05-14"},
		"Openai-Organization":       {"org-123"},
		"Set-Cookie":                {"__cf_bm=abc; path=/"},
		"x-goog-api-key":            {"AIzaSy"}, // not canonical: still matched
		"Anthropic-Organization-Id": {"2ab3"},
	}
	got := Default().Header(in)
	want := http.Header{
		"X-Api-Key":                 {Mask},
		"Authorization":             {Mask, Mask},
		"Anthropic-Version":         {"2023-06-01"},
		"Anthropic-Beta":            {"interleaved-thinking-2025-05-14"},
		"Openai-Organization":       {Mask},
		"Set-Cookie":                {Mask},
		"x-goog-api-key":            {Mask},
		"Anthropic-Organization-Id": {Mask},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("redacted headers (-want +got):\n%s", d)
	}
	if in.Get("X-Api-Key") != "sk-ant-api03-abc" {
		t.Fatal("Header modified its input")
	}
	if got := Default().WithHeaders("X-Tenant").Header(http.Header{"X-Tenant": {"acme"}}); got.Get("X-Tenant") != Mask {
		t.Fatalf("WithHeaders: X-Tenant = %q", got.Get("X-Tenant"))
	}
}

func TestURLMasksKeyOnly(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse&key=AIzaSyA",
			"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse&key=" + Mask},
		{"https://x/v1?KEY=abc&b=%20c", "https://x/v1?KEY=" + Mask + "&b=%20c"},
		{"https://x/v1?ke%79=abc#frag", "https://x/v1?ke%79=" + Mask + "#frag"},
		{"https://x/v1?monkey=1&key", "https://x/v1?monkey=1&key"},
		{"https://x/v1/messages", "https://x/v1/messages"},
		{"/v1/messages?key=", "/v1/messages?key=" + Mask},
	} {
		if got := Default().URL(tc.in); got != tc.want {
			t.Errorf("URL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Keys below are made up with the shape of real ones.
var (
	anthropicKey = "sk-ant-api03-Zq3x9LmP0aB7cD2eF4gH6iJ8kL0mN2oP4qR6sT8uV0wX2yZ4aB6cD8eF0gH2iJ4kL6mN8oP0qR2sT4uV6wX8yZ0aB2cD4eF6gH8iA-AbCdEfAA"
	openaiKey    = "sk-proj-Ab3dEf5GhI7jKl9MnO1pQr3StU5vWx7YzA9bCd1EfG3hIj5KlM7nOp9QrS1tUv3WxY5zAb7CdE9fGh1IjK3lMn5OpQ7rSt9UvW1xYz3AbC5dEf7GhI9jKl1MnO3pQ"
	googleKey    = "AIzaSyD3x9LmP0aB7cD2eF4gH6iJ8kL0mN2oP4q"
	jwt          = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

func TestScanFindsTokenShapes(t *testing.T) {
	for _, tc := range []struct {
		name, data, kind string
		offset           int64
	}{
		{"anthropic in header", "Bearer " + anthropicKey, "an Anthropic API key", 7},
		{"openai in json", `{"api_key":"` + openaiKey + `"}`, "an OpenAI API key", 12},
		{"google in url", "https://x/v1?key=" + googleKey + "&alt=sse", "a Google API key", 17},
		{"jwt in sse", "data: {\"token\":\"" + jwt + "\"}\n\n", "a JSON Web Token", 16},
		{"legacy openai", "sk-" + "T3BlbkFJ" + "Ab3dEf5GhI7jKl9MnO1pQr3StU5vWx7YzA9bCd1E", "an OpenAI API key", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := Scan("request.body", []byte(tc.data))
			if l == nil {
				t.Fatalf("no leak found in %q", tc.data)
			}
			if l.Kind != tc.kind || l.Offset != tc.offset || l.Field != "request.body" {
				t.Fatalf("leak = %+v, want kind %q at %d", l, tc.kind, tc.offset)
			}
			if strings.Contains(l.Error(), tc.data[tc.offset+12:]) {
				t.Fatalf("error message shows the secret: %s", l.Error())
			}
		})
	}
}

func TestScanIgnoresLookalikes(t *testing.T) {
	for _, data := range []string{
		"use sk-learn-classification-pipeline for this", // prose: no digits, no upper case
		"fake-api-key-for-testing-only",
		"Bearer test-api-key",
		"sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"sk-test-1234567890abcdefghijklmnop",
		"EqQBCkYIBxgCKkBsk-Ab3dEf5GhI7jKl9MnO1pQr3StU5vWx7Yz", // inside a base64 signature
		"gAAAAABoAIzaSyD3x9LmP0aB7cD2eF4gH6iJ8kL0mN2oP4qXX",   // inside encrypted_content
		"AIzaShort",
		"eyJhbGciOiJIUzI1NiJ9 is not a JWT without a payload",
		"a.eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.x", // after a dot: part of something else
		Mask,
	} {
		if l := Scan("body", []byte(data)); l != nil {
			t.Errorf("Scan(%q) = %v, want nothing", data, l)
		}
	}
}

func TestScanHeaderNamesTheHeader(t *testing.T) {
	h := Default().Header(http.Header{
		"Authorization": {"Bearer " + openaiKey},
		"X-Debug-Token": {"copy of " + openaiKey},
	})
	l := ScanHeader("request.headers", h)
	if l == nil || l.Field != "request.headers.X-Debug-Token" {
		t.Fatalf("ScanHeader = %v, want a leak in request.headers.X-Debug-Token", l)
	}
	// Of several, the first by name, whatever order the map gives.
	for range 20 {
		h := http.Header{"X-Zz": {openaiKey}, "X-Mm": {openaiKey}, "X-Aa": {"copy " + openaiKey}, "Accept": {"*/*"}}
		if l := ScanHeader("h", h); l == nil || l.Field != "h.X-Aa" || l.Offset != 5 {
			t.Fatalf("ScanHeader = %v, want the leak at offset 5 of h.X-Aa", l)
		}
	}
}

func TestScannerFindsTokensSplitAcrossWrites(t *testing.T) {
	body := []byte("data: {\"a\":1}\n\ndata: {\"k\":\"" + jwt + "\"}\n\n")
	want := Scan("response.body", body)
	if want == nil {
		t.Fatal("Scan found nothing")
	}
	for split := 1; split < len(body); split++ {
		s := NewScanner("response.body")
		s.Write(body[:split])
		s.Write(body[split:])
		if got := s.Leak(); got == nil || *got != *want {
			t.Fatalf("split at %d: leak %v, want %v", split, got, want)
		}
	}
}

func TestScannerKeepsLittleBetweenWrites(t *testing.T) {
	s := NewScanner("response.body")
	chunk := []byte(strings.Repeat("A", 4096))
	for range 100 { // one 400 KB base64 run: nothing can start inside it
		s.Write(chunk)
	}
	if len(s.tail) > maxToken+len(chunk) {
		t.Fatalf("tail holds %d bytes", len(s.tail))
	}
	s.Write([]byte("\n\ndata: " + googleKey + "\n\n"))
	if l := s.Leak(); l == nil || l.Offset != 409600+8 {
		t.Fatalf("leak = %+v, want a Google key at byte %d", l, 409600+8)
	}
}

// Real traffic recorded by other projects holds signatures, encrypted
// reasoning and ids of every shape, and (checked by hand) no live key: the
// scanner must not cry wolf on any of it.
func TestScanCorpusHasNoFalsePositives(t *testing.T) {
	for _, f := range corpus.Files(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if l := Scan(filepath.Base(f), data); l != nil {
			t.Errorf("%s: %v", corpus.Name(t, f), l)
		}
	}
}

// Gateway credentials carried in the URL: Google OAuth access tokens and
// presigned AWS URLs.
func TestGatewayQueryCredentials(t *testing.T) {
	p := Default()
	got := p.URL("https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse?X-Amz-Credential=ASIAXAMPLE%2F20251125&X-Amz-Signature=abc123&x-amz-security-token=tok&other=1")
	want := "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&x-amz-security-token=REDACTED&other=1"
	if got != want {
		t.Errorf("URL:\n got %s\nwant %s", got, want)
	}
	if got := p.URL("https://aiplatform.googleapis.com/v1/x:generateContent?access_token=ya29.a0AfH6"); got != "https://aiplatform.googleapis.com/v1/x:generateContent?access_token=REDACTED" {
		t.Errorf("URL: %s", got)
	}
}

// TestScannerCopiesOnlyTheJunction: a piece that does not continue a run
// of token bytes is scanned where it is; only the tail and the piece's
// first run are copied to be scanned together.
func TestScannerCopiesOnlyTheJunction(t *testing.T) {
	s := NewScanner("response.body")
	piece := []byte(strings.Repeat("data: some words\n\n", 2000))
	for range 50 {
		s.Write(piece)
	}
	if cap(s.buf) > 1<<10 {
		t.Fatalf("the scanner's buffer grew to %d bytes for pieces of %d", cap(s.buf), len(piece))
	}
	s.Write([]byte("data: " + googleKey + "\n\n"))
	if l := s.Leak(); l == nil || l.Offset != int64(50*len(piece)+6) {
		t.Fatalf("leak = %+v, want a Google key at byte %d", l, 50*len(piece)+6)
	}
}
