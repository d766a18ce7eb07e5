package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/llmtck/llmtck/cassette"
)

// Replay matches on what Match says: the default compares the JSON body,
// --match-ignore leaves volatile fields out, a narrower list matches more
// and header:NAME matches less.
func TestReplayMatchOptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.yaml")
	recorded := `{"model":"claude-x","max_tokens":5,"temperature":0.2,"messages":[{"role":"user","content":"hi"}]}`
	c := &cassette.Cassette{Interactions: []*cassette.Interaction{{
		Request: cassette.Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages",
			Header: http.Header{"X-Tenant": {"acme"}}, Body: []byte(recorded)},
		Response: cassette.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: []byte(`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"hello"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)},
	}}}
	if err := cassette.Save(path, c); err != nil {
		t.Fatal(err)
	}
	warmer := `{"model":"claude-x","max_tokens":5,"temperature":0.9,"messages":[{"role":"user","content":"hi"}]}`
	other := `{"model":"claude-x","max_tokens":5,"messages":[{"role":"user","content":"bye"}]}`
	for _, tc := range []struct {
		name, on string
		ignore   []string
		body     string
		tenant   string
		want     int
	}{
		{"default, same body", "", nil, recorded, "acme", 200},
		{"default, other temperature", "", nil, warmer, "acme", 404},
		{"temperature ignored", "", []string{"temperature"}, warmer, "acme", 200},
		{"method and path only", "method,path", nil, other, "", 200},
		{"header matches", "method,path,header:x-tenant", nil, other, "acme", 200},
		{"header differs", "method,path,header:x-tenant", nil, other, "globex", 404},
		{"exact bytes, same value respaced", "method,path,body", nil, " " + recorded, "acme", 404},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := cassette.ParseMatcher(tc.on, tc.ignore)
			if err != nil {
				t.Fatal(err)
			}
			rec := mustRecorder(t, Options{Mode: ModeReplay, Cassette: path, Match: m})
			srv := httptest.NewServer(NewHandler(rec, nil))
			defer srv.Close()
			req, _ := http.NewRequest("POST", srv.URL+"/v1/messages", bytes.NewReader([]byte(tc.body)))
			if tc.tenant != "" {
				req.Header.Set("X-Tenant", tc.tenant)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("match %q ignoring %v: HTTP %d, want %d", m, tc.ignore, resp.StatusCode, tc.want)
			}
		})
	}
	for _, bad := range []string{"method,colour", "header:", "path,,query"} {
		if _, err := cassette.ParseMatcher(bad, nil); err == nil {
			t.Errorf("--match %q accepted", bad)
		}
	}
	if _, err := cassette.ParseMatcher("", []string{"metadata..user_id"}); err == nil {
		t.Error("a malformed --match-ignore path accepted")
	}
}
