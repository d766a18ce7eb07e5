package proxy

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
)

// A harness declares its ephemeral feedback with X-Llmtck-Ephemeral: the
// upstream never sees the header, the cassette keeps the content, and check
// on the recorded cassette finds the feedback that leaked into history
// (HIST-005), as the live simulator would.
func TestEphemeralHeaderRecorded(t *testing.T) {
	var sawHeader bool
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawHeader = sawHeader || r.Header.Get(HeaderEphemeral) != ""
		io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"{\"ok\":true}"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "eph.yaml")
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Judge: catalogue})
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()

	const feedback = "Reply with JSON only: {\"ok\": bool}."
	msg := func(role, text string) string { return `{"role":"` + role + `","content":` + quoteJSON(text) + `}` }
	bodies := []string{
		`{"model":"claude-x","max_tokens":50,"messages":[` + msg("user", "q") + `]}`,
		`{"model":"claude-x","max_tokens":50,"messages":[` + msg("user", "q") + `,` + msg("assistant", "not json") + `,` + msg("user", feedback) + `]}`,
		// The next turn keeps the feedback in its history: the leak.
		`{"model":"claude-x","max_tokens":50,"messages":[` + msg("user", "q") + `,` + msg("assistant", "not json") + `,` + msg("user", feedback) + `,` + msg("assistant", `{"ok":true}`) + `,` + msg("user", "next") + `]}`,
	}
	for i, b := range bodies {
		var header []string
		if i == 1 {
			header = []string{HeaderEphemeral, base64.StdEncoding.EncodeToString([]byte(feedback))}
		}
		if resp, _ := post(t, front.Client(), front.URL+"/v1/messages", []byte(b), header...); resp.StatusCode != 200 {
			t.Fatalf("call %d: %d", i, resp.StatusCode)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if sawHeader {
		t.Error("the upstream got the ephemeral header")
	}
	rep, err := report.CheckPaths([]string{path}, checks.All(), "")
	if err != nil {
		t.Fatal(err)
	}
	var hist []string
	for _, f := range rep.Files[0].Findings {
		if f.Check == "HIST-005" {
			hist = append(hist, f.String())
		}
	}
	if len(hist) == 0 || !strings.Contains(strings.Join(hist, "\n"), "[2]") {
		t.Errorf("check did not find the leaked feedback at interaction 2: %v\n%+v", hist, rep.Files[0].Findings)
	}
	c := loadStock(t, path)
	if strings.Contains(c.Interactions[1].Request.Headers.Get(HeaderEphemeral), "") && c.Interactions[1].Request.Headers.Get(HeaderEphemeral) != "" {
		t.Error("the cassette recorded the ephemeral header")
	}
}

func quoteJSON(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
