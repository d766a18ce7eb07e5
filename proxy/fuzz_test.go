package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/redact"
	"github.com/llmtck/llmtck/internal/reqmatch"
	"github.com/llmtck/llmtck/providers"
)

// fuzzCassette is a real recording in the repository (not the corpus, so the
// targets run in a bare clone).
var fuzzCassette = filepath.Join("..", "fixtures", "checks", "XP-RAW-001", "pass-real-anthropic-signatures-byte-exact.yaml")

func fuzzSeeds(f *testing.F) *cassette.Cassette {
	c, err := cassette.Load(fuzzCassette)
	if err != nil {
		f.Fatal(err)
	}
	return c
}

// FuzzRoundTrip sends what a client may send through the recorder in replay
// mode: any method, target, header and body. It answers every one (a replay,
// a 404 naming the nearest request, or a refusal), never panics, and never
// echoes a credential the request carried.
func FuzzRoundTrip(f *testing.F) {
	c := fuzzSeeds(f)
	for _, in := range c.Interactions {
		u, _ := url.Parse(in.Request.URL)
		f.Add(in.Request.Method, u.RequestURI(), "Content-Type", "application/json", in.Request.Body)
	}
	f.Add("GET", "/v1/models?key=AIzaSyD3x9LmP0aB7cD2eF4gH6iJ8kL0mN2oP4q", "Authorization", "Bearer x", []byte{})
	f.Add("POST", "/v1beta/models/g:streamGenerateContent?alt=sse", "Content-Encoding", "gzip", []byte{0x1f, 0x8b, 8, 0})
	f.Add("PRI", "*", "", "", []byte("\xff\xfe{"))
	f.Fuzz(func(t *testing.T, method, target, name, value string, body []byte) {
		// A recorder per input: the linter's history of earlier inputs
		// would make each call slower than the last.
		rec, err := NewRecorder(Options{Mode: ModeReplay, Cassette: fuzzCassette, Judge: catalogue, Check: true, Log: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Close()
		req, err := http.NewRequest(method, "http://api.anthropic.com"+target, bytes.NewReader(body))
		if err != nil {
			return // not a request a server would parse
		}
		if name != "" && httpHeaderName(name) {
			req.Header.Set(name, value)
		}
		resp, err := rec.RoundTrip(req)
		if err != nil {
			return // a replayed failure or a client gone: the connection fails
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 0 {
			t.Fatalf("a response without a status")
		}
		if resp.StatusCode == http.StatusNotFound && !bytes.Contains(got, []byte("no recorded request")) {
			t.Fatalf("a 404 that does not say why: %s", got)
		}
		if l := redact.ScanAll("", []byte(target+string(body))); l != nil && resp.StatusCode == http.StatusNotFound {
			if tok := secretAt(target+string(body), l); tok != "" && bytes.Contains(got, []byte(tok)) {
				t.Fatalf("the miss echoes the credential %q", tok)
			}
		}
	})
}

// secretAt is the credential l found in s, as far as its shape runs.
func secretAt(s string, l *redact.Leak) string {
	end := int(l.Offset) + len(l.Prefix)
	for end < len(s) && strings.IndexByte(" \"'&?#,}]\n\\", s[end]) < 0 {
		end++
	}
	return s[l.Offset:end]
}

// httpHeaderName reports whether name is a token net/http sends.
func httpHeaderName(name string) bool {
	for _, c := range []byte(name) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return false
		}
	}
	return true
}

// FuzzMatchAndNearest holds replay matching to its promises on any body: a
// recorded request matches itself, and a miss names the nearest recorded
// request with at most reqmatch.MaxDiffs differences.
func FuzzMatchAndNearest(f *testing.F) {
	c := fuzzSeeds(f)
	for _, in := range c.Interactions {
		f.Add(in.Request.Body, "", "")
		f.Add(bytes.Replace(in.Request.Body, []byte(`"user"`), []byte(`"assistant"`), 1), "method,path,body", "temperature")
	}
	f.Add([]byte(`{"a":[{"b":{"c":[1,2,{"d":null}]}}]}`), "header:X-A,body-json", "a.b")
	f.Fuzz(func(t *testing.T, body []byte, on, ignore string) {
		m, err := cassette.ParseMatcher(on, strings.Split(ignore, ","))
		if err != nil {
			return
		}
		p := newPlayer(m, redact.Default().URL, c.Interactions)
		for i, in := range c.Interactions {
			wire := providers.Detect(in.Request.URL, in.Request.Body, nil)
			if p.match(in.Request.Method, reqmatch.Target(in.Request.URL), in.Request.Header, wire, in.Request.Body) == nil {
				t.Fatalf("interaction %d does not match itself under %v", i, m)
			}
		}
		in := c.Interactions[0]
		wire := providers.Detect(in.Request.URL, body, nil)
		if p.match(in.Request.Method, reqmatch.Target(in.Request.URL), in.Request.Header, wire, body) != nil {
			return
		}
		miss := p.nearest(in.Request.Method, reqmatch.Target(in.Request.URL), wire, body)
		if miss.Nearest == nil || len(miss.Diffs) > reqmatch.MaxDiffs {
			t.Fatalf("miss: nearest %v, %d diffs", miss.Nearest, len(miss.Diffs))
		}
		_ = miss.String()
	})
}
