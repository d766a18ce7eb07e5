package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/cassette"
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
		rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: filepath.Join(t.TempDir(), "c.yaml"), Judge: catalogue, Log: &logs})
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
// written. Half the clients send one-turn prompts; the others each carry on
// a conversation, echoing every answer (a thinking block signed for that
// call alone), and alter the thinking they echo in their last turn. That
// turn alone is found out (ANT-THINK-001), whatever the other clients'
// calls in between: it is judged after the call whose answer it alters is
// remembered, as the queue's order promises.
func TestLintQueueUnderConcurrentCalls(t *testing.T) {
	defer func(n int) { maxQueued = n }(maxQueued)
	maxQueued = 1
	// The provider thinks about each question under a signature of its own.
	question := regexp.MustCompile(`client (\d+) call (\d+)"\}\]\}$`)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m := question.FindSubmatch(body)
		if m == nil {
			http.Error(w, "no question", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"msg_%[1]sx%[2]s","type":"message","role":"assistant","model":"claude-x","content":[%[3]s,{"type":"text","text":"Hi."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`,
			m[1], m[2], thought(string(m[1]), string(m[2]), ""))
	}))
	defer up.Close()
	var logs syncBuffer
	path := filepath.Join(t.TempDir(), "c.yaml")
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Judge: catalogue, Log: &logs})
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()
	const clients, each = 8, 12
	const head = `{"model":"claude-x","max_tokens":2048,"thinking":{"type":"enabled","budget_tokens":1024},"messages":[`
	var wg sync.WaitGroup
	for k := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var history []string
			for i := range each {
				if k%2 == 0 {
					history = nil // a new one-turn conversation each time
				}
				history = append(history, fmt.Sprintf(`{"role":"user","content":"client %d call %d"}`, k, i))
				resp, got := post(t, front.Client(), front.URL+"/v1/messages", []byte(head+strings.Join(history, ",")+`]}`), "Anthropic-Version", "2023-06-01")
				echoed := thought(strconv.Itoa(k), strconv.Itoa(i), "")
				if resp.StatusCode != 200 || !bytes.Contains(got, []byte(echoed)) {
					t.Errorf("client %d call %d: %d %s", k, i, resp.StatusCode, got)
					return
				}
				if k%2 == 1 && i == each-2 {
					echoed = thought(strconv.Itoa(k), strconv.Itoa(i), " again") // sent back altered in the last turn
				}
				history = append(history, `{"role":"assistant","content":[`+echoed+`,{"type":"text","text":"Hi."}]}`)
			}
		}()
	}
	wg.Wait()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := cassette.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Interactions) != clients*each {
		t.Errorf("%d interactions recorded for %d calls", len(c.Interactions), clients*each)
	}
	// One line per call, each naming the call's place in the cassette:
	// the altered turns alone are found, and the lines that say so name
	// the interactions whose requests alter a thinking block.
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != clients*each {
		t.Errorf("%d log lines for %d calls", len(lines), clients*each)
	}
	places := map[int]bool{}
	found := 0
	line := regexp.MustCompile(`^record POST \S+ 200 plain \S+ tools=0 lint=(\S+) cassette=c\.yaml#(\d+)$`)
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("log line %q: want a recorded 200", l)
		}
		at, _ := strconv.Atoi(m[2])
		if places[at] || at >= len(c.Interactions) {
			t.Fatalf("log line %q: want a recorded 200, each in a place of its own", l)
		}
		places[at] = true
		altered := bytes.Contains(c.Interactions[at].Request.Body, []byte(" again."))
		switch {
		case m[1] == "-" && !altered:
		case m[1] == "ANT-THINK-001" && altered:
			found++
		default:
			t.Errorf("log line %q names interaction #%d, whose request alters a thinking block: %v", l, at, altered)
		}
	}
	if found != clients/2 {
		t.Errorf("%d calls found to alter a thinking block, want the %d altered turns:\n%s", found, clients/2, logs.String())
	}
}

// A job that panics (a bug in a check) is reported as a warning, and the
// jobs after it still run: the recorder goes on recording.
func TestLintQueueGoesOnAfterAPanic(t *testing.T) {
	var warnings syncBuffer
	q := newLintQueue(func(msg string) { warnings.Write([]byte(msg)) }, nil)
	ran := make(chan struct{})
	q.push(func() { panic("a check's bug") })
	q.push(func() { close(ran) })
	<-ran
	if w := warnings.String(); !strings.Contains(w, "the live linter failed") || !strings.Contains(w, "a check's bug") || !strings.Contains(w, "lintqueue_test.go") {
		t.Errorf("warning %q: want the panic and where it happened", w)
	}
}

// thought is the thinking block the provider of
// TestLintQueueUnderConcurrentCalls answers call i of client k with; more
// alters its text, not its signature.
func thought(k, i, more string) string {
	return `{"type":"thinking","thinking":"Thinking of ` + k + `.` + i + more + `.","signature":"EqQB` + k + `x` + i + `CkYIBxgCKkA"}`
}

// The lines of the calls the lint queue finishes in one batch go out in one
// write: a log on a terminal costs a write per line otherwise, on every
// call of a recording.
func TestLintQueueWritesABatchsLinesInOneWrite(t *testing.T) {
	defer func(g time.Duration) { gather = g }(gather)
	gather = 500 * time.Millisecond // long enough for every call to end before the batch runs
	up := newProvider(t, false, &cassette.Response{Status: 200, Body: []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"Hi."}]}`)})
	u, _ := url.Parse(up.URL)
	log := &countedWrites{}
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: filepath.Join(t.TempDir(), "c.yaml"), Judge: catalogue, Log: log})
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()
	const calls = 5
	for i := range calls {
		post(t, http.DefaultClient, fmt.Sprintf("%s/call/%d/v1/messages", front.URL, i), []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`))
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(log.String(), "\n")
	if lines != calls {
		t.Fatalf("the log is\n%s\nwant %d lines", log.String(), calls)
	}
	if log.writes() >= calls {
		t.Errorf("%d lines took %d writes, want fewer: a batch's lines go out in one", lines, log.writes())
	}
}

// countedWrites is a log that counts the writes it takes.
type countedWrites struct {
	syncBuffer
	n atomic.Int32
}

func (w *countedWrites) Write(p []byte) (int, error) {
	w.n.Add(1)
	return w.syncBuffer.Write(p)
}

func (w *countedWrites) writes() int { return int(w.n.Load()) }
