package proxy

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/internal/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
)

// judgeOnArrival takes rec's cassettes off their lint queues, so each
// request is judged on arrival, on its call's path, as with --check.
func judgeOnArrival(rec *Recorder) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, b := range rec.books {
		b.queue = nil
	}
}

// A recorder whose linter runs on the lint queue logs, for every corpus
// recording recorded call by call, the lines one that judges each request
// on its arrival logs: the same findings and tool counts, the same notes
// (a stream's response, decoded on the call's path to tell one cut short,
// is joined to the request the queue decoded).
func TestQueuedLintLogsWhatJudgingOnArrivalLogs(t *testing.T) {
	dur := regexp.MustCompile(` \d+(\.\d+)?(µs|ms|s) `)
	host := regexp.MustCompile(`127\.0\.0\.1:\d+`)
	record := func(t *testing.T, c *cassette.Cassette, onArrival bool) string {
		up := newProvider(t, false, responsesOf(c)...)
		var logs syncBuffer
		rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: filepath.Join(t.TempDir(), "c.yaml"), Lint: true, Log: &logs})
		if onArrival {
			judgeOnArrival(rec)
		}
		u, _ := url.Parse(up.URL)
		front := httptest.NewServer(NewHandler(rec, u))
		defer front.Close()
		for _, in := range c.Interactions {
			target, _ := url.Parse(in.Request.URL)
			req, _ := http.NewRequest(in.Request.Method, front.URL+target.RequestURI(), bytes.NewReader(in.Request.Body))
			for k, vs := range in.Request.Header {
				if k != "Content-Length" && k != "Accept-Encoding" {
					req.Header[k] = vs
				}
			}
			do(t, req)
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		return dur.ReplaceAllString(host.ReplaceAllString(logs.String(), "HOST"), " DUR ")
	}
	linted := 0
	for _, file := range append(corpus.Files(t), corpus.SetFiles(t, corpus.Wave2)...) {
		c, err := cassette.Load(file)
		if err != nil {
			continue // a recording no cassette parser reads: the corpus tests say why
		}
		if c.Interactions[0].Request.Method == "" {
			continue // response-only fixtures have no request to send
		}
		t.Run(corpus.Name(t, file), func(t *testing.T) {
			queued, onArrival := record(t, c, false), record(t, c, true)
			if d := cmp.Diff(onArrival, queued); d != "" {
				t.Errorf("log lines mismatch (-judged on arrival +queued):\n%s", d)
			}
			if n := strings.Count(queued, "\n"); n < len(c.Interactions) {
				t.Errorf("%d log lines for %d calls:\n%s", n, len(c.Interactions), queued)
			}
			linted += strings.Count(queued, " lint=") - strings.Count(queued, " lint=-")
		})
	}
	if linted == 0 {
		t.Error("no call of the corpus was logged with a finding: the comparison shows nothing")
	}
}

// Calls from many clients at once, through a lint queue that holds one job
// at a time (so calls wait for room): every call gets its answer, its
// interaction and exactly one log line, and Close returns once all are
// written.
func TestLintQueueUnderConcurrentCalls(t *testing.T) {
	defer func(n int) { maxQueued = n }(maxQueued)
	maxQueued = 1
	answer := &cassette.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: []byte(`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"Hi."}],"stop_reason":"end_turn"}`)}
	up := newProvider(t, false, answer)
	var logs syncBuffer
	path := filepath.Join(t.TempDir(), "c.yaml")
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Lint: true, Log: &logs})
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()
	const clients, each = 8, 25
	var wg sync.WaitGroup
	for k := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				body := fmt.Sprintf(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"client %d call %d"}]}`, k, i)
				resp, got := post(t, front.Client(), front.URL+"/v1/messages", []byte(body), "Anthropic-Version", "2023-06-01")
				if resp.StatusCode != 200 || !bytes.Equal(got, answer.Body) {
					t.Errorf("client %d call %d: %d %s", k, i, resp.StatusCode, got)
				}
			}
		}()
	}
	wg.Wait()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		m := regexp.MustCompile(`^record POST \S+ 200 plain \S+ tools=0 lint=- cassette=c\.yaml#(\d+)$`).FindStringSubmatch(l)
		if m == nil || seen[m[1]] {
			t.Fatalf("log line %q: want one line per call, each a recorded 200 with no finding", l)
		}
		seen[m[1]] = true
	}
	if len(lines) != clients*each {
		t.Errorf("%d log lines for %d calls", len(lines), clients*each)
	}
	c, err := cassette.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Interactions) != clients*each {
		t.Errorf("%d interactions recorded for %d calls", len(c.Interactions), clients*each)
	}
}

// A job that panics (a bug in a check) is reported as a warning, and the
// jobs after it still run: the recorder goes on recording.
func TestLintQueueGoesOnAfterAPanic(t *testing.T) {
	var warnings syncBuffer
	q := newLintQueue(func(msg string) { warnings.Write([]byte(msg)) })
	ran := make(chan struct{})
	q.push(func() { panic("a check's bug") })
	q.push(func() { close(ran) })
	<-ran
	if w := warnings.String(); !strings.Contains(w, "the live linter failed") || !strings.Contains(w, "a check's bug") || !strings.Contains(w, "lintqueue_test.go") {
		t.Errorf("warning %q: want the panic and where it happened", w)
	}
}
