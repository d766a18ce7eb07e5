package proxy

import (
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/llmtck/llmtck/internal/corpus"
)

// The per-call log lines and a replay miss's explanation are read by people
// and grepped by scripts: their form is pinned (go test -update rewrites).
func TestLogLinesAndMissGolden(t *testing.T) {
	c := loadCorpus(t, antThinking)
	file := filepath.Join(corpus.Dir(t), antThinking)
	var logs syncBuffer
	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: file, Log: &logs, Judge: catalogue})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()
	for _, in := range c.Interactions {
		post(t, back.Client(), back.URL+"/v1/messages?beta=true", in.Request.Body)
	}
	var req map[string]any
	json.Unmarshal(c.Interactions[1].Request.Body, &req)
	req["max_tokens"] = 7
	req["temperature"] = 0.5
	body, _ := json.Marshal(req)
	_, miss := post(t, back.Client(), back.URL+"/v1/messages?beta=true", body)
	rp.Close() // a linted call's log line follows its answer (the lint queue)

	host := regexp.MustCompile(`127\.0\.0\.1:\d+`)
	dur := regexp.MustCompile(` \d+(\.\d+)?(µs|ms|s) `)
	golden.Assert(t, dur.ReplaceAllString(host.ReplaceAllString(logs.String(), "HOST"), " DUR "), "replay-log.golden")
	golden.Assert(t, string(miss)+"\n", "replay-miss.golden")
}
