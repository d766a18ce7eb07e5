package proxy

import (
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
	"testing"
	"time"

	"github.com/llmtck/llmtck/cassette"
)

// Calls that overlap and finish in the reverse of the order they started
// are logged in the order they started, and each line's cassette=FILE#N is
// the place Close leaves the interaction at, after the file's earlier
// interactions: the index `check` reports it under. Judged on the lint
// queue, judged on arrival (auto with --check), and not linted.
func TestLogLinesNameThePlaceCloseLeaves(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"lint-queue", Options{Mode: ModeRecord, Judge: catalogue}},
		{"judged-on-arrival", Options{Mode: ModeAuto, Judge: catalogue, Check: true}},
		{"no-lint", Options{Mode: ModeRecord}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 6
			arrived := make(chan int, n)
			release := make([]chan struct{}, n+2)
			for i := range release {
				release[i] = make(chan struct{})
			}
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				i, _ := strconv.Atoi(strings.Split(r.URL.Path, "/")[2])
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(200)
				fmt.Fprintf(w, "event: message_start\ndata: {\"type\":\"message_start\",\"n\":%d}\n\n", i)
				http.NewResponseController(w).Flush()
				arrived <- i
				<-release[i]
				fmt.Fprintf(w, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
			}))
			defer up.Close()
			u, _ := url.Parse(up.URL)
			path := filepath.Join(t.TempDir(), "c.yaml")
			call := func(front string, i int) error {
				resp, err := http.Post(fmt.Sprintf("%s/call/%d/v1/messages", front, i), "application/json", strings.NewReader(`{"model":"claude-x","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi `+strconv.Itoa(i)+`"}]}`))
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				_, err = io.ReadAll(resp.Body)
				return err
			}

			// A first session leaves two interactions (calls n and n+1)
			// for the second one's to follow.
			for _, i := range []int{n, n + 1} {
				close(release[i])
			}
			first := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
			front := httptest.NewServer(NewHandler(first, u))
			for _, i := range []int{n, n + 1} {
				go func() { <-arrived }()
				if err := call(front.URL, i); err != nil {
					t.Fatal(err)
				}
			}
			front.Close()
			if err := first.Close(); err != nil {
				t.Fatal(err)
			}

			var log syncBuffer
			opts := tc.opts
			opts.Cassette, opts.Log = path, &log
			rec := mustRecorder(t, opts)
			front = httptest.NewServer(NewHandler(rec, u))
			defer front.Close()
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := call(front.URL, i); err != nil {
						t.Error(err)
					}
				}()
				if got := <-arrived; got != i { // the order of request starts is known
					t.Fatalf("call %d arrived as %d", i, got)
				}
			}
			for i := n - 1; i >= 0; i-- {
				close(release[i])
				time.Sleep(time.Millisecond) // let it end before the next: the reverse order
			}
			wg.Wait()
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}

			c := loadStock(t, path)
			line := regexp.MustCompile(`^record POST \S+/call/(\d+)/v1/messages 200 stream .* cassette=c\.yaml#(\d+)$`)
			lines := strings.Split(strings.TrimSpace(log.String()), "\n")
			if len(lines) != n {
				t.Fatalf("%d log lines, want %d:\n%s", len(lines), n, log.String())
			}
			for k, l := range lines {
				m := line.FindStringSubmatch(l)
				if m == nil {
					t.Fatalf("log line %d is %q, want a recorded stream", k, l)
				}
				i, _ := strconv.Atoi(m[1])
				if i != k {
					t.Errorf("log line %d is call %d's, want the calls' lines in the order they started:\n%s", k, i, log.String())
				}
				at, _ := strconv.Atoi(m[2])
				if at >= len(c.Interactions) {
					t.Fatalf("call %d's line names interaction #%d of %d", i, at, len(c.Interactions))
				}
				if got, want := c.Interactions[at].Request.URL, fmt.Sprintf("/call/%d/", i); !strings.Contains(got, want) {
					t.Errorf("call %d's line names interaction #%d, which Close left holding %s", i, at, got)
				}
			}
		})
	}
}

// A call that never ends holds back no other call's log line past Close:
// Close, having waited for it in vain, writes the lines of the calls that
// ended after it, with the places they have in the file it leaves.
func TestCloseWritesTheLinesACallInFlightHeldBack(t *testing.T) {
	old := closeWait
	closeWait = 100 * time.Millisecond
	defer func() { closeWait = old }()
	up, arrived, stuck := holdingUpstream(t, "/stuck/")
	u, _ := url.Parse(up.URL)
	path := filepath.Join(t.TempDir(), "c.yaml")
	var log syncBuffer
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Judge: catalogue, Log: &log})
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()
	defer close(stuck) // before the servers close: they wait for the stuck call
	body := `{"model":"claude-x","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`

	resp, err := http.Post(front.URL+"/stuck/v1/messages", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close() // its body is never read to its end
	<-arrived
	post(t, http.DefaultClient, front.URL+"/after/v1/messages", []byte(body))

	err = rec.Close()
	if err == nil || !strings.Contains(err.Error(), "still in flight") {
		t.Fatalf("Close: %v, want it to say a call was still in flight", err)
	}
	c := loadStock(t, path)
	if len(c.Interactions) != 1 || !strings.Contains(c.Interactions[0].Request.URL, "/after/") {
		t.Fatalf("the cassette holds %d interactions, want the one call that ended", len(c.Interactions))
	}
	if want := regexp.MustCompile(`(?m)^record POST \S+/after/v1/messages 200 stream .* cassette=c\.yaml#0$`); !want.MatchString(log.String()) {
		t.Fatalf("the log after Close is\n%s\nwant the line of the call that ended, naming #0", log.String())
	}
}

// blockedLog is a log whose writes wait until it is let go, as a terminal
// does when its output is paused.
type blockedLog struct {
	entered chan struct{} // a write has begun
	letGo   chan struct{}
	syncBuffer
}

func (l *blockedLog) Write(p []byte) (int, error) {
	select {
	case l.entered <- struct{}{}:
	default:
	}
	<-l.letGo
	return l.syncBuffer.Write(p)
}

// A log that does not take its lines holds up only the call that is
// writing to it (none, with the linter's queue): later calls start, are
// answered and end, and their lines follow once the log takes them again.
func TestAStuckLogHoldsUpNoOtherCall(t *testing.T) {
	for _, tc := range []struct {
		name string
		lint bool
	}{{"lint-queue", true}, {"no-lint", false}} {
		t.Run(tc.name, func(t *testing.T) {
			up := newProvider(t, false, &cassette.Response{Status: 200, Body: []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"Hi."}]}`)})
			u, _ := url.Parse(up.URL)
			log := &blockedLog{entered: make(chan struct{}, 1), letGo: make(chan struct{})}
			var letGo sync.Once
			rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: filepath.Join(t.TempDir(), "c.yaml"), Judge: judgeIf(tc.lint), Log: log})
			front := httptest.NewServer(NewHandler(rec, u))
			defer front.Close()
			defer letGo.Do(func() { close(log.letGo) }) // first: the server waits for its calls
			call := func(i int) <-chan struct{} {
				done := make(chan struct{})
				go func() {
					defer close(done)
					post(t, http.DefaultClient, fmt.Sprintf("%s/call/%d/v1/messages", front.URL, i), []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`))
				}()
				return done
			}
			first := call(0)
			<-log.entered // the first line is being written, and the log takes it no further
			for i := 1; i <= 3; i++ {
				select {
				case <-call(i):
				case <-time.After(10 * time.Second):
					t.Fatalf("call %d waited for a log that did not take the line of another call", i)
				}
			}
			letGo.Do(func() { close(log.letGo) })
			<-first
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			got := regexp.MustCompile(`/call/(\d+)/`).FindAllStringSubmatch(log.String(), -1)
			if len(got) != 4 {
				t.Fatalf("the log is\n%s\nwant the 4 calls' lines", log.String())
			}
			for i, m := range got {
				if m[1] != strconv.Itoa(i) {
					t.Fatalf("the log is\n%s\nwant the calls' lines in the order they started", log.String())
				}
			}
		})
	}
}

// In auto mode, a request replayed from a call recorded earlier in the same
// session logs the place that call has in the file Close leaves: here a
// call that finished first, while an earlier one was still streaming, is
// written first and moved second by Close.
func TestReplayedInTheSameSessionNamesTheFinalPlace(t *testing.T) {
	up, arrived, release := holdingUpstream(t, "/slow/")
	u, _ := url.Parse(up.URL)
	path := filepath.Join(t.TempDir(), "c.yaml")
	var log syncBuffer
	rec := mustRecorder(t, Options{Mode: ModeAuto, Cassette: path, Log: &log})
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()
	body := []byte(`{"model":"claude-x","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`)

	slow := make(chan struct{})
	go func() {
		defer close(slow)
		post(t, http.DefaultClient, front.URL+"/slow/v1/messages", body)
	}()
	<-arrived
	post(t, http.DefaultClient, front.URL+"/fast/v1/messages", body) // recorded
	post(t, http.DefaultClient, front.URL+"/fast/v1/messages", body) // replayed
	close(release)
	<-slow
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	c := loadStock(t, path)
	if len(c.Interactions) != 2 || !strings.Contains(c.Interactions[1].Request.URL, "/fast/") {
		t.Fatalf("the cassette holds %d interactions; want the slow call's, then the fast one's", len(c.Interactions))
	}
	want := regexp.MustCompile(`(?m)^replay POST \S+/fast/v1/messages 200 stream .* cassette=c\.yaml#1$`)
	if !want.MatchString(log.String()) {
		t.Fatalf("the log is\n%s\nwant the replayed call to name #1, where Close left what it replays", log.String())
	}
}

// holdingUpstream answers every call with a two-event stream. A call whose
// path starts with held sends its first event, says so on arrived, and
// sends the second only once release is closed; the server closes when
// the test ends, so release must be closed before then.
func holdingUpstream(t *testing.T, held string) (up *httptest.Server, arrived <-chan struct{}, release chan struct{}) {
	in := make(chan struct{}, 1)
	release = make(chan struct{})
	up = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		fmt.Fprintf(w, "event: message_start\ndata: {\"type\":\"message_start\"}\n\n")
		if strings.HasPrefix(r.URL.Path, held) {
			http.NewResponseController(w).Flush()
			in <- struct{}{}
			<-release
		}
		fmt.Fprintf(w, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	}))
	t.Cleanup(up.Close)
	return up, in, release
}

// Under load a released log line may wait for others to go out in one
// write, but only briefly: a call whose line is free to go, while a call
// that started after it still runs, is logged within a few milliseconds,
// not when the other ends. A call that ends with none running is logged
// before its client has the answer.
func TestLogLineWaitsBrieflyForOthers(t *testing.T) {
	release := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	arrived := make(chan string, 2)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if name := strings.Split(r.URL.Path, "/")[1]; name != "now" {
			arrived <- name
			<-release[name]
		}
		fmt.Fprint(w, `{"id":"msg_1","type":"message","content":[{"type":"text","text":"Hi."}]}`)
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	var log syncBuffer
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: filepath.Join(t.TempDir(), "c.yaml"), Log: &log})
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()
	body := []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`)
	var freed sync.Map
	free := func(name string) { // once; and before the servers close, which wait for their calls
		if _, done := freed.LoadOrStore(name, true); !done {
			close(release[name])
		}
	}
	defer free("a")
	defer free("b")

	post(t, front.Client(), front.URL+"/now/v1/messages", body)
	if !strings.Contains(log.String(), "/now/v1/messages 200") {
		t.Fatalf("a call that ended with none running is not logged by the time its client has the answer:\n%s", log.String())
	}

	var wg sync.WaitGroup
	for _, name := range []string{"b", "a"} { // b starts first, then a
		wg.Add(1)
		go func() {
			defer wg.Done()
			post(t, front.Client(), front.URL+"/"+name+"/v1/messages", body)
		}()
		if got := <-arrived; got != name {
			t.Fatalf("call %s arrived first", got)
		}
	}
	free("b")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(log.String(), "/b/v1/messages 200") {
		if time.Now().After(deadline) {
			t.Fatalf("call b ended with nothing before it, but its line waits for call a, still running:\n%s", log.String())
		}
		time.Sleep(time.Millisecond)
	}
	free("a")
	wg.Wait()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if got := regexp.MustCompile(`/(\w+)/v1/messages`).FindAllStringSubmatch(log.String(), -1); len(got) != 3 || got[1][1] != "b" || got[2][1] != "a" {
		t.Fatalf("the log is\n%s\nwant the lines of now, b and a, in the order they started", log.String())
	}
}
