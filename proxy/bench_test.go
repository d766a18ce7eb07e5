package proxy

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elazarl/goproxy"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/redact"
	"github.com/llmtck/llmtck/internal/reqmatch"
	"github.com/llmtck/llmtck/traffic"
)

// The benchmarks compare, in one run on loopback, a direct connection with
// httputil.ReverseProxy, bare goproxy, and llmtck's base-URL recorder and
// forward proxy (both recording; a cassette is fsynced at most every
// syncEvery). Figures are reported with b.ReportMetric.

// benchRoute is one way to the upstream: a client and the URL it calls.
type benchRoute struct {
	name   string
	client *http.Client
	url    string
	// rec is the route's recorder; nil for the others.
	rec *Recorder
}

// settle waits until the route's recorder has finished the calls
// answered: their lint and log lines, which a recorder with a lint queue
// finishes a moment after the answer, are part of what a call costs.
func (rt benchRoute) settle() {
	if rt.rec != nil {
		<-rt.rec.inflight.idle()
	}
}

// benchRoutes starts every route to up: direct, reverseproxy, goproxy,
// llmtck-record, llmtck-proxy, and the last two as the CLI builds them
// (-shipped), in that order.
func benchRoutes(b *testing.B, up *httptest.Server) []benchRoute {
	b.Helper()
	u, _ := url.Parse(up.URL)
	tr := func() *http.Transport {
		return &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1
	rp.Transport = tr() // not http.DefaultTransport, which other tests' servers reset
	rps := httptest.NewServer(rp)
	b.Cleanup(rps.Close)

	gp := goproxy.NewProxyHttpServer()
	gp.Logger = nopLogger{}
	gp.Tr = NewUpstream() // the same connection pool as llmtck's, for a fair race
	gps := httptest.NewServer(gp)
	b.Cleanup(gps.Close)

	dir := b.TempDir()
	rec := mustRecorder(b, Options{Mode: ModeRecord, Cassette: filepath.Join(dir, "bench.yaml")})
	b.Cleanup(func() { rec.Close() })
	recs := httptest.NewServer(NewHandler(rec, u))
	b.Cleanup(recs.Close)

	frec := mustRecorder(b, Options{Mode: ModeRecord, Dir: dir})
	b.Cleanup(func() { frec.Close() })
	fwd := httptest.NewServer(NewForward(frec, ForwardOptions{Hosts: []string{"127.0.0.1"}}))
	b.Cleanup(fwd.Close)

	// As the CLI builds them: the live linter and the per-call log on.
	shipped := mustRecorder(b, Options{Mode: ModeRecord, Cassette: filepath.Join(dir, "shipped.yaml"), Judge: catalogue, Log: stderrFile(b)})
	b.Cleanup(func() { shipped.Close() })
	shippedSrv := httptest.NewServer(NewHandler(shipped, u))
	b.Cleanup(shippedSrv.Close)
	fshipped := mustRecorder(b, Options{Mode: ModeRecord, Dir: filepath.Join(dir, "shipped"), Judge: catalogue, Log: stderrFile(b)})
	b.Cleanup(func() { fshipped.Close() })
	fwdShipped := httptest.NewServer(NewForward(fshipped, ForwardOptions{Hosts: []string{"127.0.0.1"}}))
	b.Cleanup(fwdShipped.Close)

	proxied := func(p string) *http.Client {
		t := tr()
		pu, _ := url.Parse(p)
		t.Proxy = http.ProxyURL(pu)
		return &http.Client{Transport: t}
	}
	return []benchRoute{
		{"direct", &http.Client{Transport: tr()}, up.URL, nil},
		{"reverseproxy", &http.Client{Transport: tr()}, rps.URL, nil},
		{"goproxy", proxied(gps.URL), up.URL, nil},
		{"llmtck-record", &http.Client{Transport: tr()}, recs.URL, rec},
		{"llmtck-proxy", proxied(fwd.URL), up.URL, frec},
		{"llmtck-record-shipped", &http.Client{Transport: tr()}, shippedSrv.URL, shipped},
		{"llmtck-proxy-shipped", proxied(fwdShipped.URL), up.URL, fshipped},
	}
}

// mitmRoutes starts the forward proxies as a harness meets them: through
// HTTPS_PROXY, to a provider host they intercept with a certificate from
// their CA, over TLS both ways (up is a TLS server). The routes are bare
// goproxy doing the same (goproxy-mitm), llmtck's forward proxy without the
// linter (llmtck-proxy-mitm) and as the CLI builds it
// (llmtck-proxy-mitm-shipped), in that order; each is checked to intercept.
func mitmRoutes(b *testing.B, up *httptest.Server) []benchRoute {
	b.Helper()
	ca, err := LoadOrCreateCA(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	upstream := func() *http.Transport {
		t := NewUpstream()
		t.TLSClientConfig = up.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
		return t
	}
	hosts := []string{"127.0.0.1"}

	gp := goproxy.NewProxyHttpServer()
	gp.Logger = nopLogger{}
	gp.Tr = upstream()
	gp.OnRequest(goproxy.DstHostIs(hosts[0])).HandleConnectFunc(func(host string, _ *goproxy.ProxyCtx) (*goproxy.ConnectAction, string) {
		return &goproxy.ConnectAction{Action: goproxy.ConnectMitm, TLSConfig: func(host string, _ *goproxy.ProxyCtx) (*tls.Config, error) {
			return ca.TLSConfig(host)
		}}, host
	})
	gps := httptest.NewServer(gp)
	b.Cleanup(gps.Close)

	dir := b.TempDir()
	forward := func(opts Options) (*httptest.Server, *Recorder) {
		opts.Mode, opts.Upstream = ModeRecord, upstream()
		rec := mustRecorder(b, opts)
		b.Cleanup(func() { rec.Close() })
		srv := httptest.NewServer(NewForward(rec, ForwardOptions{CA: ca, Hosts: hosts}))
		b.Cleanup(srv.Close)
		return srv, rec
	}
	plain, plainRec := forward(Options{Dir: filepath.Join(dir, "plain")})
	shipped, shippedRec := forward(Options{Dir: filepath.Join(dir, "shipped"), Judge: catalogue, Log: stderrFile(b)})

	client := func(proxy string) *http.Client {
		pu, _ := url.Parse(proxy)
		return &http.Client{Transport: &http.Transport{
			Proxy: http.ProxyURL(pu), TLSClientConfig: &tls.Config{RootCAs: ca.Pool()},
			MaxIdleConnsPerHost: 64, DisableCompression: true,
		}}
	}
	routes := []benchRoute{
		{"goproxy-mitm", client(gps.URL), up.URL, nil},
		{"llmtck-proxy-mitm", client(plain.URL), up.URL, plainRec},
		{"llmtck-proxy-mitm-shipped", client(shipped.URL), up.URL, shippedRec},
	}
	for _, rt := range routes {
		// A tunnel instead would race TLS end to end against interception.
		resp, err := rt.client.Get(rt.url)
		if err != nil {
			b.Fatalf("%s: %v", rt.name, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		rt.settle()
		if resp.TLS == nil || resp.TLS.PeerCertificates[0].CheckSignatureFrom(ca.Cert) != nil {
			b.Fatalf("%s does not intercept: the client does not see a certificate from its CA", rt.name)
		}
	}
	return routes
}

// stderrFile is the log of a recorder as the CLI builds it: the CLI logs
// to stderr, which a CI job sends to a file, so every line is a write to
// one.
func stderrFile(b *testing.B) *os.File {
	f, err := os.Create(filepath.Join(b.TempDir(), "stderr"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f
}

// streamingRequest asks for a stream; the benchmarks' upstreams answer
// whatever is asked.
var streamingRequest = []byte(`{"model":"claude-x","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`)

type nopLogger struct{}

func (nopLogger) Printf(string, ...any) {}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// BenchmarkStreamTTFB measures, route by route in turn, the time from
// sending a streaming request to reading its first event.
func BenchmarkStreamTTFB(b *testing.B) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\"}\n\n")
		http.NewResponseController(w).Flush()
		io.WriteString(w, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	}))
	defer up.Close()
	routes := benchRoutes(b, up)
	ttfb := make([][]time.Duration, len(routes))
	body := streamingRequest
	first := make([]byte, 10)
	b.ResetTimer()
	for range b.N {
		for i, rt := range routes {
			start := time.Now()
			resp, err := rt.client.Post(rt.url+"/v1/messages", "application/json", bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.ReadFull(resp.Body, first); err != nil {
				b.Fatal(err)
			}
			ttfb[i] = append(ttfb[i], time.Since(start))
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	b.StopTimer()
	for i, rt := range routes {
		b.ReportMetric(float64(median(ttfb[i]).Microseconds()), "µs-ttfb-"+rt.name)
	}
	direct := median(ttfb[0])
	b.ReportMetric(float64((median(ttfb[3]) - direct).Microseconds()), "µs-added-by-recorder")
	b.ReportMetric(float64((median(ttfb[4]) - direct).Microseconds()), "µs-added-by-proxy")
	// The goal: what the recorder and the forward proxy as the CLI builds
	// them add to bare goproxy's time to first byte.
	gp := median(ttfb[2])
	b.ReportMetric(float64((median(ttfb[5]) - gp).Microseconds()), "µs-shipped-recorder-over-goproxy")
	b.ReportMetric(float64((median(ttfb[6]) - gp).Microseconds()), "µs-shipped-proxy-over-goproxy")
}

// pacedStream answers with n events, gap apart, each flushed as it is
// written.
func pacedStream(n int, gap time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i := range n {
			if i > 0 {
				time.Sleep(gap)
			}
			fmt.Fprintf(w, "event: content_block_delta\ndata: {\"i\":%d}\n\n", i)
			rc.Flush()
		}
	})
}

// BenchmarkStreamGaps sends 20 events 5 ms apart and reports how far the
// gaps seen by the client stray from 5 ms, per route: the median, the 95th
// percentile and the worst.
func BenchmarkStreamGaps(b *testing.B) {
	const gap = 5 * time.Millisecond
	up := httptest.NewServer(pacedStream(20, gap))
	defer up.Close()
	routes := benchRoutes(b, up)
	errs := make([][]time.Duration, len(routes))
	b.ResetTimer()
	for range b.N {
		for i, rt := range routes {
			resp, err := rt.client.Post(rt.url+"/v1/messages", "application/json", strings.NewReader(`{"stream":true}`))
			if err != nil {
				b.Fatal(err)
			}
			times, _ := eventTimes(b, resp.Body)
			resp.Body.Close()
			for j := 1; j < len(times); j++ {
				d := times[j].Sub(times[j-1]) - gap
				if d < 0 {
					d = -d
				}
				errs[i] = append(errs[i], d)
			}
		}
	}
	b.StopTimer()
	for i, rt := range routes {
		s := errs[i]
		sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
		b.ReportMetric(float64(s[len(s)/2].Microseconds()), "µs-gap-error-p50-"+rt.name)
		b.ReportMetric(float64(s[len(s)*95/100].Microseconds()), "µs-gap-error-p95-"+rt.name)
		b.ReportMetric(float64(s[len(s)-1].Microseconds()), "µs-gap-error-max-"+rt.name)
	}
}

// evalCall is a call as an eval harness makes it, for the throughput
// benchmarks: answer is a real Anthropic answer (a thinking block with its
// signature, then 1.1 KB of markdown), and each question a new one-turn
// conversation asking in about as much prose. A recorder scans, encodes and
// judges what a call holds, so the bodies are real text: runs of one letter
// would hide the work done word by word (NoToolCalls).
func evalCall(b *testing.B) (answer []byte, question func() []byte) {
	b.Helper()
	answer = loadCorpus(b, antAnswer).Interactions[0].Response.Body
	var msg struct{ Content []struct{ Type, Text string } }
	if err := json.Unmarshal(answer, &msg); err != nil {
		b.Fatal(err)
	}
	var text []byte
	for _, c := range msg.Content {
		if c.Type == "text" {
			text = rawjson.Quote(c.Text)
			text = text[1 : len(text)-1] // the string's inside, escaped
		}
	}
	if len(text) < 1024 {
		b.Fatalf("%s: the answer's text is %d bytes; the benchmarks want a longer one", antAnswer, len(text))
	}
	var asked atomic.Int64
	return answer, func() []byte {
		return []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"question ` + strconv.FormatInt(asked.Add(1), 10) + `: ` + string(text) + `"}]}`)
	}
}

// BenchmarkThroughput sends non-streamed calls from 8 clients at once,
// each a new conversation as an eval harness's are, through each route,
// and reports calls per second and the process's CPU time per call, and
// each llmtck route's rate as a multiple of bare goproxy's
// (x-…-of-goproxy; the shipped ones are the recorder and the forward proxy
// as the CLI builds them). The forward proxies are also raced as a harness
// meets them, intercepting TLS to a provider over HTTPS_PROXY, against bare
// goproxy doing the same (x-…-mitm-of-goproxy-mitm): the plain-HTTP race
// compares them on a path no provider call takes.
func BenchmarkThroughput(b *testing.B) {
	respBody, reqBody := evalCall(b)
	answer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(respBody)
	})
	up := httptest.NewServer(answer)
	defer up.Close()
	upTLS := httptest.NewTLSServer(answer)
	defer upTLS.Close()
	// Plain HTTP first, as every benchmark compares the routes; then the
	// forward proxies as a harness meets them, over TLS (mitmRoutes).
	routes := append(benchRoutes(b, up), mitmRoutes(b, upTLS)...)
	// Turns long enough that a lint queue's last gathering (a millisecond,
	// waited for by settle) is a small part of one.
	const batch, workers = 1024, 8
	elapsed := make([]time.Duration, len(routes))
	load := func(rt benchRoute) time.Duration {
		start := time.Now()
		postInParallel(b, workers, batch, rt.client, rt.url+"/v1/messages", reqBody)
		rt.settle()
		return time.Since(start)
	}
	for _, rt := range routes {
		load(rt) // open the connections before timing
	}
	// CPU per call, the client's and the upstream's included (the same
	// for every route): steadier than calls/s on a shared machine, and it
	// says what a route costs when the machine is busy.
	cpu := make([]time.Duration, len(routes))
	_, cpuKnown := processCPU()
	b.ResetTimer()
	// Short turns, route after route, so a change in machine load hits all.
	for range b.N {
		for i, rt := range routes {
			before, _ := processCPU()
			elapsed[i] += load(rt)
			after, _ := processCPU()
			cpu[i] += after - before
		}
	}
	b.StopTimer()
	rate := func(i int) float64 { return float64(b.N*batch) / elapsed[i].Seconds() }
	perCall := func(i int) float64 { return float64(cpu[i].Microseconds()) / float64(b.N*batch) }
	for i, rt := range routes {
		b.ReportMetric(rate(i), "calls/s-"+rt.name)
		if cpuKnown {
			b.ReportMetric(perCall(i), "µs-cpu/call-"+rt.name)
		}
	}
	if cpuKnown {
		b.ReportMetric(perCall(5)/perCall(2), "x-shipped-recorder-cpu-of-goproxy")
		// What the linter and the log add to a recorded call, from the
		// same run: the figure a linter change moves, steadier than rates.
		b.ReportMetric(perCall(5)-perCall(3), "µs-cpu/call-linter")
	}
	b.ReportMetric(rate(3)/rate(2), "x-recorder-of-goproxy")
	b.ReportMetric(rate(4)/rate(2), "x-proxy-of-goproxy")
	b.ReportMetric(rate(5)/rate(2), "x-shipped-recorder-of-goproxy")
	b.ReportMetric(rate(6)/rate(2), "x-shipped-proxy-of-goproxy")
	b.ReportMetric(rate(8)/rate(7), "x-proxy-mitm-of-goproxy-mitm")
	b.ReportMetric(rate(9)/rate(7), "x-shipped-proxy-mitm-of-goproxy-mitm")
	if cpuKnown {
		b.ReportMetric(perCall(9)/perCall(7), "x-shipped-proxy-mitm-cpu-of-goproxy-mitm")
	}
}

// postInParallel posts calls bodies to url from workers clients at once and
// returns how long they took.
func postInParallel(b *testing.B, workers, calls int, client *http.Client, url string, body func() []byte) time.Duration {
	var next atomic.Int32
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for int(next.Add(1)) <= calls {
				r, err := client.Post(url, "application/json", bytes.NewReader(body()))
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, r.Body)
				r.Body.Close()
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// BenchmarkRecordGrowingConversation records one conversation that grows
// by a turn per call to 600 turns, as an agent's does, through the recorder
// as the CLI builds it (linter and log on; on Anthropic Messages and on
// Chat Completions) and with the linter off, and reports how the per-call
// time (p50) of the last tenth of the calls compares with the first tenth
// (about 1 for work that follows the new content, growing with the
// conversation for work that redoes the history on every call), and the
// heap the recorder holds at the end.
//
// Each call is followed by the same request sent straight to the upstream
// and through httputil.ReverseProxy, whose times grow with the request too
// (a longer body to send and read, twice through a proxy), and so does the
// part of a recording that must handle the whole body (the credential
// scan, the cassette, which holds every request whole). Their growth is
// reported from the same run (direct-…, reverseproxy-last-tenth/first-tenth),
// and so is what the recorder adds to the reverse proxy's time in the first
// tenth and in the last (ms-over-reverseproxy-…): the recorder's own cost,
// and how it grows with the conversation.
//
// A call's time runs until the recorder has finished it, its lint and log
// line included, which the lint queue does after the answer; the time the
// client waits for the answer alone is reported too (answered-…). The
// queue does not wait to gather a batch here: one call at a time gives it
// none to gather, and the wait would be idle time, not work.
func BenchmarkRecordGrowingConversation(b *testing.B) {
	const turns = 600
	defer func(g time.Duration) { gather = g }(gather)
	gather = 0
	up := growingUpstream()
	defer up.Close()
	u, _ := url.Parse(up.URL)
	for _, c := range []struct {
		name string
		lint bool
		path string
		body func(n int) []byte
	}{
		{"shipped", true, "/v1/messages", growingMessages},
		{"shipped-chat", true, "/v1/chat/completions", growingChat},
		{"lint-off", false, "/v1/messages", growingMessages},
	} {
		b.Run(c.name, func(b *testing.B) {
			var ratio, answeredRatio, directRatio, proxyRatio, held, first, last, overFirst, overLast float64
			direct := &http.Client{Transport: &http.Transport{}}
			rp := httputil.NewSingleHostReverseProxy(u)
			rp.Transport = &http.Transport{}
			rps := httptest.NewServer(rp)
			defer rps.Close()
			for range b.N {
				before := heapInUse()
				rec := mustRecorder(b, Options{Mode: ModeRecord, Cassette: filepath.Join(b.TempDir(), "grow.yaml"), Judge: judgeIf(c.lint), Log: stderrFile(b)})
				srv := httptest.NewServer(NewHandler(rec, u))
				took, answered := make([]time.Duration, turns), make([]time.Duration, turns)
				tookDirect, tookProxy := make([]time.Duration, turns), make([]time.Duration, turns)
				post := func(client *http.Client, url string, req []byte) time.Duration {
					start := time.Now()
					resp, err := client.Post(url, "application/json", bytes.NewReader(req))
					if err != nil {
						b.Fatal(err)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					return time.Since(start)
				}
				for i := range turns {
					req := c.body(i)
					start := time.Now()
					answered[i] = post(srv.Client(), srv.URL+c.path, req)
					<-rec.inflight.idle()
					took[i] = time.Since(start)
					tookDirect[i] = post(direct, up.URL+c.path, req)
					tookProxy[i] = post(direct, rps.URL+c.path, req)
				}
				held += float64(heapInUse()-before) / (1 << 20)
				srv.Close()
				rec.Close()
				f, l := median(took[:turns/10]), median(took[turns*9/10:])
				ratio += float64(l) / float64(f)
				answeredRatio += growth(answered)
				directRatio += growth(tookDirect)
				proxyRatio += growth(tookProxy)
				first += f.Seconds() * 1000
				last += l.Seconds() * 1000
				overFirst += (f - median(tookProxy[:turns/10])).Seconds() * 1000
				overLast += (l - median(tookProxy[turns*9/10:])).Seconds() * 1000
			}
			direct.CloseIdleConnections()
			b.ReportMetric(ratio/float64(b.N), "last-tenth/first-tenth")
			b.ReportMetric(answeredRatio/float64(b.N), "answered-last-tenth/first-tenth")
			b.ReportMetric(directRatio/float64(b.N), "direct-last-tenth/first-tenth")
			b.ReportMetric(proxyRatio/float64(b.N), "reverseproxy-last-tenth/first-tenth")
			b.ReportMetric(overFirst/float64(b.N), "ms-over-reverseproxy-first-tenth")
			b.ReportMetric(overLast/float64(b.N), "ms-over-reverseproxy-last-tenth")
			b.ReportMetric(first/float64(b.N), "ms-p50-first-tenth")
			b.ReportMetric(last/float64(b.N), "ms-p50-last-tenth")
			b.ReportMetric(held/float64(b.N), "MB-heap-held")
		})
	}
}

// The growing conversation of BenchmarkRecordGrowingConversation: request
// n is request n-1, its answer and one more question. The history only
// grows, as an agent's does.
var growingAnswer = strings.Repeat("answer ", 40)

func growingQuestion(i int) string {
	return "question " + strconv.Itoa(i) + " " + strings.Repeat("words ", 40)
}

func growingHistory(n int, user, assistant func(i int) string) string {
	var msgs []string
	for i := range n + 1 {
		if i > 0 {
			msgs = append(msgs, assistant(i))
		}
		msgs = append(msgs, user(i))
	}
	return strings.Join(msgs, ",")
}

// growingMessages is request n of the conversation on Anthropic Messages.
func growingMessages(n int) []byte {
	return []byte(`{"model":"claude-x","max_tokens":10,"messages":[` + growingHistory(n,
		func(i int) string { return `{"role":"user","content":"` + growingQuestion(i) + `"}` },
		func(int) string {
			return `{"role":"assistant","content":[{"type":"text","text":"` + growingAnswer + `"}]}`
		}) + `]}`)
}

// growingChat is request n of the conversation on Chat Completions.
func growingChat(n int) []byte {
	return []byte(`{"model":"gpt-x","messages":[` + growingHistory(n,
		func(i int) string { return `{"role":"user","content":"` + growingQuestion(i) + `"}` },
		func(int) string { return `{"role":"assistant","content":"` + growingAnswer + `"}` }) + `]}`)
}

// growingUpstream answers the conversation on either wire.
func growingUpstream() *httptest.Server {
	answers := map[string][]byte{
		"/v1/messages":         []byte(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"` + growingAnswer + `"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`),
		"/v1/chat/completions": []byte(`{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-x","choices":[{"index":0,"message":{"role":"assistant","content":"` + growingAnswer + `"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`),
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(answers[r.URL.Path])
	}))
}

// growth is the p50 of the last tenth of took over that of the first.
func growth(took []time.Duration) float64 {
	n := len(took)
	return float64(median(took[n*9/10:])) / float64(median(took[:n/10]))
}

// heapInUse is the live heap after a collection.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// BenchmarkReplayThroughput compares the replay server, built as `llmtck
// replay` builds it (a log line per call), with a static Go handler that
// serves the same recorded bytes, for a JSON body and a stream: in calls
// per second, and in CPU per call (%-replay-of-static-by-cpu is the static
// handler's CPU per call over replay's).
func BenchmarkReplayThroughput(b *testing.B) {
	for _, fixture := range []string{antThinking, antStream} {
		src := loadCorpus(b, fixture)
		in := src.Interactions[0]
		name := "json"
		if isStream(in.Response.Header, in.Response.Body) {
			name = "stream"
		}
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "r.yaml")
			cassette.Save(path, &cassette.Cassette{Interactions: []*cassette.Interaction{in}})
			static := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				for k, v := range served(in.Response.Header, in.Response.Body) {
					w.Header()[k] = v
				}
				w.WriteHeader(in.Response.Status)
				w.Write(in.Response.Body)
			}))
			defer static.Close()
			rp := mustRecorder(b, Options{Mode: ModeReplay, Cassette: path, Log: stderrFile(b)})
			replay := httptest.NewServer(NewHandler(rp, nil))
			defer replay.Close()
			servers := []*httptest.Server{static, replay}
			elapsed := make([]time.Duration, 2)
			const batch, workers = 400, 16
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			target := reqmatch.Target(in.Request.URL)
			load := func(s *httptest.Server) time.Duration {
				return postInParallel(b, workers, batch, client, s.URL+target, func() []byte { return in.Request.Body })
			}
			// Open the connections and load the cassette before timing.
			for _, s := range servers {
				load(s)
			}
			// CPU per call as well, the client's included (the same for
			// both): steadier than calls/s on a shared machine.
			cpu := make([]time.Duration, 2)
			_, cpuKnown := processCPU()
			b.ResetTimer()
			for n := range b.N {
				// Each goes first in turn, so neither always follows the other's garbage.
				for k := range servers {
					i := (n + k) % len(servers)
					before, _ := processCPU()
					elapsed[i] += load(servers[i])
					after, _ := processCPU()
					cpu[i] += after - before
				}
			}
			b.StopTimer()
			staticRate, replayRate := float64(b.N*batch)/elapsed[0].Seconds(), float64(b.N*batch)/elapsed[1].Seconds()
			b.ReportMetric(staticRate, "calls/s-static")
			b.ReportMetric(replayRate, "calls/s-replay")
			b.ReportMetric(100*replayRate/staticRate, "%-replay-of-static")
			if cpuKnown {
				b.ReportMetric(100*float64(cpu[0])/float64(cpu[1]), "%-replay-of-static-by-cpu")
			}
		})
	}
}

// bigCassette writes a cassette of n interactions shaped like a growing
// Anthropic conversation (a few KB of request, a streamed response).
func bigCassette(b *testing.B, n int) (string, []*cassette.Interaction) {
	src := loadCorpus(b, antStream).Interactions[0]
	c := &cassette.Cassette{}
	for i := range n {
		in := *src
		in.Request.Body = []byte(fmt.Sprintf(`{"model":"claude-sonnet-4-5","max_tokens":4096,"metadata":{"user_id":"session-%d"},"messages":[{"role":"user","content":"turn %d: %s"}],"stream":true}`, i, i, strings.Repeat("lorem ipsum ", 200)))
		c.Interactions = append(c.Interactions, &in)
	}
	path := filepath.Join(b.TempDir(), "big.yaml")
	if err := cassette.Save(path, c); err != nil {
		b.Fatal(err)
	}
	return path, c.Interactions
}

// BenchmarkReplayLoad opens a 1,000-interaction cassette for replay.
func BenchmarkReplayLoad(b *testing.B) {
	path, _ := bigCassette(b, 1000)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ResetTimer()
	for range b.N {
		if _, err := NewRecorder(Options{Mode: ModeReplay, Cassette: path}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatch finds the recorded answer to a request in a 1,000-interaction
// cassette: the same bytes, and the same request re-serialised with another
// session id (the canonical path).
func BenchmarkMatch(b *testing.B) {
	_, ins := bigCassette(b, 1000)
	p := newPlayer(cassette.Matcher{}, redact.Default().URL, ins)
	in := ins[500]
	tg := reqmatch.Target(in.Request.URL)
	other := bytes.Replace(in.Request.Body, []byte("session-500"), []byte("session-xyz"), 1)
	other = append([]byte("{ "), other[1:]...)
	b.Run("same-bytes", func(b *testing.B) {
		b.SetBytes(int64(len(in.Request.Body)))
		for range b.N {
			if p.match("POST", tg, nil, traffic.WireAnthropic, in.Request.Body) == nil {
				b.Fatal("no match")
			}
		}
	})
	b.Run("canonical", func(b *testing.B) {
		// Fill the cache of exact requests so every call is canonicalised.
		for len(p.byRaw) < 8*len(p.entries)+64 {
			p.byRaw[strconv.Itoa(len(p.byRaw))] = nil
		}
		b.SetBytes(int64(len(other)))
		for range b.N {
			if p.match("POST", tg, nil, traffic.WireAnthropic, other) == nil {
				b.Fatal("no match")
			}
		}
	})
}

// TestBenchChild is the forward proxy that BenchmarkLargeStreamMemory runs
// in a child process to measure its memory alone; it does nothing in a
// normal test run.
//
// With LLMTCK_BENCH_UPSTREAM set, it is instead the recorder as the CLI's
// record command builds it (base URL, linter and log on) in front of that
// upstream, for BenchmarkGrowingConversationMemory.
func TestBenchChild(t *testing.T) {
	dir := os.Getenv("LLMTCK_BENCH_DIR")
	if dir == "" {
		t.Skip("only run as the child of BenchmarkLargeStreamMemory or BenchmarkGrowingConversationMemory")
	}
	var rec *Recorder
	var fwd *httptest.Server
	if up := os.Getenv("LLMTCK_BENCH_UPSTREAM"); up != "" {
		u, err := url.Parse(up)
		if err != nil {
			t.Fatal(err)
		}
		rec = mustRecorder(t, Options{Mode: ModeRecord, Cassette: filepath.Join(dir, "grow.yaml"), Judge: catalogue, Log: io.Discard})
		fwd = httptest.NewServer(NewHandler(rec, u))
	} else {
		rec = mustRecorder(t, Options{Mode: ModeRecord, Dir: dir})
		fwd = httptest.NewServer(NewForward(rec, ForwardOptions{Hosts: []string{"127.0.0.1"}}))
	}
	fmt.Printf("listening on %s\n", fwd.URL)
	io.Copy(io.Discard, os.Stdin) // until the parent closes stdin
	rec.Close()
	fwd.Close()
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			fmt.Println(line)
		}
	}
	os.Exit(0)
}

// BenchmarkLargeStreamMemory streams 100 MB through the recording forward
// proxy, running in a child process, and reports the child's peak resident
// memory.
func BenchmarkLargeStreamMemory(b *testing.B) {
	event := []byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"" + strings.Repeat("abcdefgh", 1000) + "\"}}\n\n")
	const total = 100 << 20
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for sent := 0; sent < total; sent += len(event) {
			w.Write(event)
		}
	}))
	defer up.Close()
	for range b.N {
		dir := b.TempDir()
		pu, peak := benchChild(b, "LLMTCK_BENCH_DIR="+dir)
		client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
		resp, err := client.Get(up.URL + "/v1/messages")
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || n < total {
			b.Fatalf("read %d bytes: %v", n, err)
		}
		kb := peak()
		st, err := os.Stat(CassetteFor(dir, pu.Host))
		if err != nil {
			st, err = os.Stat(CassetteFor(dir, strings.TrimPrefix(up.URL, "http://")))
		}
		if err != nil || st.Size() < total {
			b.Fatalf("the cassette was not written: %v", err)
		}
		b.ReportMetric(float64(kb)/1024, "MB-peak-rss")
		b.ReportMetric(float64(st.Size())/(1<<20), "MB-cassette")
	}
}

// benchChild starts TestBenchChild in a child process with env added to its
// environment, and returns the address it listens on and a function that
// stops it and returns its peak resident memory in KB.
func benchChild(b *testing.B, env ...string) (*url.URL, func() int) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestBenchChild$")
	cmd.Env = append(os.Environ(), env...)
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	rd := bufio.NewReader(out)
	line, _ := rd.ReadString('\n')
	u, err := url.Parse(strings.TrimSpace(strings.TrimPrefix(line, "listening on ")))
	if err != nil || u.Host == "" {
		cmd.Process.Kill()
		b.Fatalf("the child did not say where it listens: %q", line)
	}
	return u, func() int {
		stdin.Close()
		rest, _ := io.ReadAll(rd)
		cmd.Wait()
		for _, l := range strings.Split(string(rest), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
				if kb, _ := strconv.Atoi(f[1]); kb > 0 {
					return kb
				}
			}
		}
		b.Fatalf("no peak memory from the child: %q", rest)
		return 0
	}
}

// BenchmarkGrowingConversationMemory records the 600-turn conversation of
// BenchmarkRecordGrowingConversation through the recorder as the CLI builds
// it (linter and log on), running in a child process, and reports the
// child's peak resident memory: the recorder's alone, which the heap
// figure of that benchmark, taken in a process that also holds the client
// and the upstream, can only approach.
func BenchmarkGrowingConversationMemory(b *testing.B) {
	const turns = 600
	up := growingUpstream()
	defer up.Close()
	for range b.N {
		dir := b.TempDir()
		rec, peak := benchChild(b, "LLMTCK_BENCH_DIR="+dir, "LLMTCK_BENCH_UPSTREAM="+up.URL)
		client := &http.Client{}
		for i := range turns {
			resp, err := client.Post(rec.String()+"/v1/messages", "application/json", bytes.NewReader(growingMessages(i)))
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("turn %d: %s", i, resp.Status)
			}
		}
		kb := peak()
		st, err := os.Stat(filepath.Join(dir, "grow.yaml"))
		if err != nil {
			b.Fatalf("the cassette was not written: %v", err)
		}
		b.ReportMetric(float64(kb)/1024, "MB-peak-rss")
		b.ReportMetric(float64(st.Size())/(1<<20), "MB-cassette")
	}
}

// BenchmarkRecordLargeStream streams a 50 MB event stream through each
// route in turn and reports each route's throughput and the shipped
// recorder's and forward proxy's as a multiple of bare goproxy's. One more
// route, goproxy-to-file, is bare goproxy writing each body it passes on to
// a file as it goes: the least a recorder of the stream must do, the floor
// the shipped recorder is also measured against (x-…-of-goproxy-to-file).
func BenchmarkRecordLargeStream(b *testing.B) {
	event := []byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" + strings.Repeat("abcdefgh", 128) + "\"}}\n\n")
	const total = 50 << 20
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for sent := 0; sent < total; sent += len(event) {
			w.Write(event)
		}
	}))
	defer up.Close()
	routes := append(benchRoutes(b, up), goproxyToFile(b, up))
	elapsed := make([]time.Duration, len(routes))
	body := streamingRequest
	short := 0
	b.ResetTimer()
	for range b.N {
		for i, rt := range routes {
			for {
				start := time.Now()
				resp, err := rt.client.Post(rt.url+"/v1/messages", "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				rt.settle()
				took := time.Since(start)
				if err == nil && n < total && strings.HasPrefix(rt.name, "goproxy") {
					// goproxy forwards under the incoming request's context,
					// which net/http cancels now and then mid-body on this
					// loopback (about one 50 MB stream in 300; not with
					// context.WithoutCancel), and it then ends the body early
					// and cleanly. Time the reference on a whole stream.
					short++
					continue
				}
				if err != nil || n < total {
					b.Fatalf("%s: read %d bytes: %v", rt.name, n, err)
				}
				elapsed[i] += took
				break
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(short), "goproxy-short-bodies-retried")
	rate := func(i int) float64 { return float64(b.N) * total / (1 << 20) / elapsed[i].Seconds() }
	for i, rt := range routes {
		b.ReportMetric(rate(i), "MB/s-"+rt.name)
	}
	b.ReportMetric(rate(5)/rate(2), "x-shipped-recorder-of-goproxy")
	b.ReportMetric(rate(6)/rate(2), "x-shipped-proxy-of-goproxy")
	b.ReportMetric(rate(7)/rate(2), "x-goproxy-to-file-of-goproxy")
	b.ReportMetric(rate(5)/rate(7), "x-shipped-recorder-of-goproxy-to-file")
}

// goproxyToFile is bare goproxy that writes every response body it passes
// on to a new file in a temporary folder, read by read.
func goproxyToFile(b *testing.B, up *httptest.Server) benchRoute {
	dir := b.TempDir()
	gp := goproxy.NewProxyHttpServer()
	gp.Logger = nopLogger{}
	gp.Tr = NewUpstream()
	gp.OnResponse().DoFunc(func(resp *http.Response, _ *goproxy.ProxyCtx) *http.Response {
		f, err := os.CreateTemp(dir, "body")
		if err != nil {
			b.Error(err)
			return resp
		}
		resp.Body = &fileCopy{ReadCloser: resp.Body, f: f}
		return resp
	})
	gps := httptest.NewServer(gp)
	b.Cleanup(gps.Close)
	pu, _ := url.Parse(gps.URL)
	tr := &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true, Proxy: http.ProxyURL(pu)}
	return benchRoute{"goproxy-to-file", &http.Client{Transport: tr}, up.URL, nil}
}

// fileCopy writes what is read through it to f.
type fileCopy struct {
	io.ReadCloser
	f *os.File
}

func (c *fileCopy) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	if _, werr := c.f.Write(p[:n]); werr != nil && err == nil {
		err = werr
	}
	return n, err
}

func (c *fileCopy) Close() error {
	c.f.Close()
	return c.ReadCloser.Close()
}

// BenchmarkReplayTiming records a stream of 20 events 5 ms apart, replays
// it with --timing recorded, and reports how far the client's first event
// and each gap stray from the recording: the first event's error (p50), the
// gaps' error (p50, p95) and the share of gaps within max(1 ms, 10 %) of
// the recorded gap.
func BenchmarkReplayTiming(b *testing.B) {
	const gap = 5 * time.Millisecond
	up := httptest.NewServer(pacedStream(20, gap))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	path := filepath.Join(b.TempDir(), "timed.yaml")
	rec := mustRecorder(b, Options{Mode: ModeRecord, Cassette: path})
	rs := httptest.NewServer(NewHandler(rec, u))
	resp, err := rs.Client().Post(rs.URL+"/v1/messages", "application/json", strings.NewReader(`{"stream":true}`))
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	rs.Close()
	rec.Close()
	c, err := cassette.Load(path)
	if err != nil || len(c.Interactions) != 1 || len(c.Interactions[0].Response.EventOffsets) != 21 {
		b.Fatalf("the recording has no event offsets: %v", err)
	}
	recorded := c.Interactions[0].Response
	offsets := recorded.EventOffsets[:20] // the last is the body's end
	// Replay waits the recorded time to the headers, then paces the events
	// from there: the first is due that long after the request.
	firstDue := recorded.Duration - recorded.EventOffsets[20] + offsets[0]
	rp := mustRecorder(b, Options{Mode: ModeReplay, Cassette: path, Timing: Timing{Scale: 1}})
	defer rp.Close()
	srv := httptest.NewServer(NewHandler(rp, nil))
	defer srv.Close()
	var firstErr, gapErr []time.Duration
	within, gaps := 0, 0
	abs := func(d time.Duration) time.Duration { return max(d, -d) }
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		resp, err := srv.Client().Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(`{"stream":true}`))
		if err != nil {
			b.Fatal(err)
		}
		times, _ := eventTimes(b, resp.Body)
		resp.Body.Close()
		if len(times) != len(offsets) {
			b.Fatalf("replayed %d events, recorded %d", len(times), len(offsets))
		}
		firstErr = append(firstErr, abs(times[0].Sub(start)-firstDue))
		for i := 1; i < len(times); i++ {
			want := offsets[i] - offsets[i-1]
			d := abs(times[i].Sub(times[i-1]) - want)
			gapErr = append(gapErr, d)
			gaps++
			if d <= max(time.Millisecond, want/10) {
				within++
			}
		}
	}
	b.StopTimer()
	sort.Slice(gapErr, func(i, j int) bool { return gapErr[i] < gapErr[j] })
	b.ReportMetric(float64(median(firstErr).Microseconds()), "µs-first-event-error-p50")
	b.ReportMetric(float64(gapErr[len(gapErr)/2].Microseconds()), "µs-gap-error-p50")
	b.ReportMetric(float64(gapErr[len(gapErr)*95/100].Microseconds()), "µs-gap-error-p95")
	b.ReportMetric(100*float64(within)/float64(gaps), "%-gaps-within-bound")
}
