package simulator

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// maxBody bounds a request body; Anthropic's limit is 32 MB.
const maxBody = 32 << 20

// Simulator is a simulated provider playing one conversation of a
// scenario. It serves each step's response in turn, and judges every
// request first by the rules — the check catalogue against the
// conversation so far, plus its own verification of the tokens it minted —
// answering a violation with the provider's own status and error body. Any
// correct harness passes, whatever its tool results say.
//
// A scenario talking to several providers is served on one handler per
// wire (Handler); steps are served in the scenario's order whichever
// handler the request comes to.
type Simulator struct {
	// Key signs the tokens the simulator mints. Nil means a key derived
	// from the scenario's name, so runs repeat byte for byte.
	Key []byte
	// OnCancel is called when the scenario's user presses stop: a tool the
	// scenario cancels was called, or a stream reached its abort point.
	// With no OnCancel (a harness over plain HTTP) an aborted stream is cut
	// off instead, as a dropped connection.
	OnCancel func()
	// CancelWait bounds how long an aborted response waits for the client
	// to hang up before the connection is cut; 0 means 5 s.
	CancelWait time.Duration
	// StopDelay is how long the user waits, once the first parts of an
	// aborted response are sent, before pressing stop: the client must have
	// read those events, or a harness that keeps the partial message has
	// nothing to keep and passes without proving anything. 0 means 100 ms.
	StopDelay time.Duration
	// Tolerate names checks whose findings are logged but never refused: a
	// harness's declared gaps and skipped checks (conformance.Gap, Skip),
	// so a team can adopt the kit before it fixes everything.
	Tolerate []string

	sc    *scenario.Scenario
	once  sync.Once
	mints map[traffic.Wire]*scenario.Minter // one key per provider

	mu         sync.Mutex
	served     int             // steps answered
	findings   []check.Finding // every finding on the requests received, faults included
	rejections []Rejection
	log        []*cassette.Interaction // every call, rejected ones included
	lint       *lint.Linter            // judges each request against log, decoded
	memo       *traffic.Memo           // decodes the history the requests repeat once, as the recorder does
	notes      []string                // what went wrong outside any check
	cut        map[int]bool            // interactions whose response the user stopped mid-way
	// unstreamedAbort are the steps (1-based) meant to be stopped mid-way
	// whose request did not ask for a stream.
	unstreamedAbort []int
	sides           []string      // requests answered outside the script
	attempts        map[int]int   // step → failed attempts served
	faulted         map[int]bool  // interactions answered with a scripted failure
	retry           *pendingRetry // the last failure that asked for a wait
	runs            []string      // tool executions since the last request (ToolRunsHeader)
}

// Rejection is a request the simulator refused: the step it asked for
// (0-based) and the provider's answer. Its Check is "" for a request outside
// any check (wrong path, missing header, one call too many).
type Rejection struct {
	Step int
	lint.Rejection
}

func (r Rejection) String() string { return fmt.Sprintf("step %d: %s", r.Step, &r.Rejection) }

// NewSimulator returns a simulator for one conversation of sc.
func NewSimulator(sc *scenario.Scenario) *Simulator {
	l := lint.New(checks.All())
	for _, t := range sc.Turns {
		if t.Feedback != "" {
			l.Ephemeral = append(l.Ephemeral, t.Feedback)
		}
	}
	return &Simulator{sc: sc, lint: l, memo: traffic.NewMemo()}
}

// Scenario is the scenario served.
func (s *Simulator) Scenario() *scenario.Scenario { return s.sc }

func (s *Simulator) init() {
	s.once.Do(func() {
		key := s.Key
		if key == nil {
			sum := sha256.Sum256([]byte("llmtck simulator " + s.sc.Name))
			key = sum[:]
		}
		// Each provider signs with its own key, as the real ones do, so a
		// token one mints is a forgery to another.
		s.mints = map[traffic.Wire]*scenario.Minter{}
		for _, w := range providers.Wires() {
			mac := hmac.New(sha256.New, key)
			mac.Write([]byte(w))
			s.mints[w] = scenario.NewMinter(mac.Sum(nil))
		}
	})
}

// Served is how many steps have been answered.
func (s *Simulator) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}

// Done reports whether every step has been served.
func (s *Simulator) Done() bool { return s.Served() == len(s.sc.Steps) }

// Requests is how many requests arrived, rejected ones included.
func (s *Simulator) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.log)
}

// Rejections lists the requests refused, in order.
func (s *Simulator) Rejections() []Rejection {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Rejection(nil), s.rejections...)
}

// Findings lists every finding on the requests received, warnings and info
// included, with the simulator's own token verdicts.
func (s *Simulator) Findings() []check.Finding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]check.Finding(nil), s.findings...)
}

// UnstreamedAborts lists the steps (1-based) the scenario stops mid-way
// whose request was not streamed, so nothing was stopped: the scenario
// proved nothing about aborts for this harness.
func (s *Simulator) UnstreamedAborts() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.unstreamedAbort...)
}

// Notes lists what went wrong outside any check: a response the client
// kept reading after it was told to stop.
func (s *Simulator) Notes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.notes...)
}

// Exchanges are the accepted calls, decoded.
func (s *Simulator) Exchanges() []traffic.Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []traffic.Exchange
	for _, ex := range s.lint.History() {
		if ex.Status == http.StatusOK {
			out = append(out, ex)
		}
	}
	return out
}

// Cassette is every call so far, rejected ones included. Credentials are
// not kept: the simulator needs none.
func (s *Simulator) Cassette() *cassette.Cassette {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &cassette.Cassette{Format: cassette.FormatGoVCRv1, Interactions: append([]*cassette.Interaction(nil), s.log...), Ephemeral: s.lint.Ephemeral}
}

// WriteCassette writes Cassette to path.
func (s *Simulator) WriteCassette(path string) error {
	c := s.Cassette()
	c.Path = path
	return cassette.Save(path, c)
}

// Judge is every finding on the traffic so far: the checks' (nil: the
// whole catalogue) merged with the simulator's own, in interaction order.
// A response the scenario's user stopped mid-way is partial by design, so
// the stream checks' findings on it are left out.
func (s *Simulator) Judge(cs []*check.Check) []check.Finding {
	if cs == nil {
		cs = checks.All()
	}
	all := mergeFindings(check.Judge(s.Traffic(), cs), s.Findings())
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []check.Finding
	for _, f := range all {
		if c := checks.Lookup(f.Check); s.cut[f.Interaction] && c != nil && c.Scope == "S" {
			continue
		}
		if s.faulted[f.Interaction] && strings.HasPrefix(f.Location, "response") {
			continue // the scripted failure broke the answer, not the harness
		}
		out = append(out, f)
	}
	return out
}

// Traffic is every call so far, decoded, for the check catalogue.
func (s *Simulator) Traffic() *check.Traffic {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &check.Traffic{Exchanges: s.lint.History(), Ephemeral: s.lint.Ephemeral}
}

// Handler serves the simulator on wire w's endpoint: give its URL to the
// harness as that provider's base URL.
func (s *Simulator) Handler(w traffic.Wire) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { s.serve(w, rw, r) })
}

// ServeHTTP serves the scenario's first provider (Handler(sc.Wire)).
func (s *Simulator) ServeHTTP(rw http.ResponseWriter, r *http.Request) { s.serve(s.sc.Wire, rw, r) }

// origins are the recorded URLs' hosts, as the real providers'.
var origins = map[traffic.Wire]string{
	traffic.WireAnthropic: "https://api.anthropic.com",
	traffic.WireOpenAI:    "https://api.openai.com",
	traffic.WireResponses: "https://api.openai.com",
	traffic.WireGemini:    "https://generativelanguage.googleapis.com",
	traffic.WireBedrock:   "https://bedrock-runtime.us-east-1.amazonaws.com",
}

// serve judges one request that came to wire w and answers it. Requests
// of one conversation are served one at a time, in arrival order.
func (s *Simulator) serve(w traffic.Wire, rw http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	s.init()
	s.mu.Lock()
	defer s.mu.Unlock()
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	in := &cassette.Interaction{Request: cassette.Request{
		Method: r.Method, URL: origins[w] + r.URL.RequestURI(), Header: credentialFree(r.Header), Body: body,
	}}
	s.log = append(s.log, in)
	step := s.served
	s.annotate(in, step, arrived)
	reject := func(rj lint.Rejection) {
		if rj.Body == nil {
			rj.Body = providers.ErrorBody(w, rj.Status, rj.Message)
		}
		s.rejections = append(s.rejections, Rejection{Step: step, Rejection: rj})
		if w == traffic.WireBedrock {
			rw.Header().Set("X-Amzn-Errortype", providers.BedrockErrorType(rj.Status))
		}
		s.answer(rw, in, rj.Status, "application/json", [][]byte{rj.Body})
	}
	fault := func(f *scenario.Fault) {
		reject(lint.Rejection{Status: f.Status, Message: f.Message, Detail: f.Detail})
	}
	switch {
	case err != nil:
		reject(lint.Rejection{Status: http.StatusBadRequest, Message: "could not read the request body", Detail: err.Error()})
		return
	case len(body) > maxBody:
		reject(lint.Rejection{Status: http.StatusRequestEntityTooLarge, Message: "Request exceeds the maximum allowed number of bytes.", Detail: "body over 32 MB"})
		return
	}
	if w == traffic.WireAnthropic && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens") {
		// A side request: the harness sizes its context. Never a step.
		s.sides = append(s.sides, fmt.Sprintf("request %d: count_tokens, answered with an estimate; no step consumed", len(s.log)))
		s.answer(rw, in, http.StatusOK, "application/json", [][]byte{[]byte(fmt.Sprintf(`{"input_tokens":%d}`, len(body)/4+1))})
		return
	}
	pathStream, f := scenario.Endpoint(w, r)
	if f != nil {
		fault(f)
		return
	}
	call := providers.Call{Method: r.Method, URL: in.Request.URL, RequestHeader: in.Request.Header, RequestBody: body, Wire: w, Memo: s.memo}
	ex := providers.Decode(len(s.log)-1, call)
	defer func() {
		providers.AddResponse(&ex, s.callOf(in, w)) // the request stays as decoded on arrival
		s.lint.Add(ex)
	}()
	if ex.Request == nil {
		reject(lint.Rejection{Status: http.StatusBadRequest, Message: ex.RequestErr, Detail: "the request does not decode"})
		return
	}
	if why, side := s.sc.IsSide(ex.Request); side {
		s.side(w, rw, in, ex, pathStream, why, reject)
		return
	}
	switch {
	case step >= len(s.sc.Steps):
		reject(lint.Rejection{Status: http.StatusBadRequest, Message: fmt.Sprintf("llmtck simulator: scenario %s has %d steps; request %d was not expected", s.sc.Name, len(s.sc.Steps), step+1),
			Detail: "the harness kept calling after the final answer"})
		return
	case s.sc.Steps[step].Wire != w:
		reject(lint.Rejection{Status: http.StatusBadRequest, Message: fmt.Sprintf("llmtck simulator: step %d of scenario %s is served by the %s simulator, not %s", step+1, s.sc.Name, s.sc.Steps[step].Wire, w),
			Detail: "the harness sent the turn to the wrong provider"})
		return
	}
	if rj := s.judge(ex); rj != nil {
		reject(*rj)
		return
	}
	stream := ex.Request.Stream || pathStream
	parts, contentType, err := s.sc.Respond(s.mints[w], step, ex.Request, stream)
	if err != nil { // the scenario was validated when parsed
		reject(lint.Rejection{Status: http.StatusInternalServerError, Message: "llmtck simulator: " + err.Error()})
		return
	}
	if failed, drop := s.serveFault(rw, in, ex, step, parts, contentType, stream); failed {
		if drop {
			panic(http.ErrAbortHandler) // the deferred Add still records the call
		}
		return
	}
	cut := false
	if n := s.sc.Steps[step].AbortAfter; n > 0 && n >= len(parts) {
		// Not streamed: there is no mid-way to stop at.
		s.unstreamedAbort = append(s.unstreamedAbort, step+1)
	}
	if n := s.sc.Steps[step].AbortAfter; n > 0 && n < len(parts) {
		if s.cut == nil {
			s.cut = map[int]bool{}
		}
		s.cut[ex.Index] = true
		cut = s.abort(rw, r, in, contentType, parts[:n])
	} else {
		s.answer(rw, in, http.StatusOK, contentType, parts)
	}
	s.served++
	if cut {
		panic(http.ErrAbortHandler) // net/http closes the connection without ending the body
	}
}

// callOf is in as a call on wire w.
func (s *Simulator) callOf(in *cassette.Interaction, w traffic.Wire) providers.Call {
	return providers.Call{Method: in.Request.Method, URL: in.Request.URL, RequestHeader: in.Request.Header, RequestBody: in.Request.Body,
		Status: in.Response.Status, ResponseHeader: in.Response.Header, ResponseBody: in.Response.Body, Wire: w}
}

// judge runs the check catalogue on ex against every call before it, then
// verifies the tokens ex echoes; it returns the provider's answer to the
// first violation it would reject, or nil.
func (s *Simulator) judge(ex traffic.Exchange) *lint.Rejection {
	v := s.lint.Judge(ex)
	s.findings = append(s.findings, v.Findings...)
	for _, f := range v.Findings {
		if f.Severity == check.SeverityError && !s.tolerated(f.Check) {
			return lint.Reject(ex.Wire, checks.Lookup(f.Check), f)
		}
	}
	if f := scenario.Verify(s.mints[ex.Wire], ex.Wire, ex.Request); f != nil {
		fd := check.Finding{Check: f.Check, Severity: check.SeverityError, Interaction: ex.Index, Location: f.Location, Message: f.Detail}
		if f.Warning {
			fd.Severity = check.SeverityWarning
		}
		s.findings = append(s.findings, fd)
		if !f.Warning && !s.tolerated(fd.Check) {
			return lint.Reject(ex.Wire, checks.Lookup(fd.Check), fd)
		}
	}
	return nil
}

// side answers a request outside the scenario's conversation (a title, a
// summary with its own system prompt) with a plain reply, judged like any
// other request but consuming no step, and logs it.
func (s *Simulator) side(w traffic.Wire, rw http.ResponseWriter, in *cassette.Interaction, ex traffic.Exchange, pathStream bool, why string, reject func(lint.Rejection)) {
	if rj := s.judge(ex); rj != nil {
		reject(*rj)
		return
	}
	parts, contentType, err := scenario.SideReply(s.mints[w], w, ex.Request, ex.Request.Stream || pathStream)
	if err != nil {
		reject(lint.Rejection{Status: http.StatusInternalServerError, Message: "llmtck simulator: " + err.Error()})
		return
	}
	s.sides = append(s.sides, fmt.Sprintf("request %d: a side request (%s), answered with a plain reply; no step consumed", len(s.log), why))
	s.answer(rw, in, http.StatusOK, contentType, parts)
}

// SideRequests lists the requests answered outside the script, for the log.
func (s *Simulator) SideRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.sides...)
}

// tolerated reports whether findings of check id are only logged.
func (s *Simulator) tolerated(id string) bool {
	for _, t := range s.Tolerate {
		if ok, _ := path.Match(t, id); ok {
			return true
		}
	}
	return false
}

// answer writes the response, flushing each part (one SSE event each for a
// stream) as it goes, and records it.
func (s *Simulator) answer(rw http.ResponseWriter, in *cassette.Interaction, status int, contentType string, parts [][]byte) {
	rw.Header().Set("Content-Type", contentType)
	rw.Header().Set("Request-Id", fmt.Sprintf("req_sim%04d", len(s.log)))
	rw.WriteHeader(status)
	flusher, _ := rw.(http.Flusher)
	for _, p := range parts {
		if _, err := rw.Write(p); err != nil {
			break // the client went away; the whole answer is still recorded
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
	in.Response = cassette.Response{Status: status, StatusText: fmt.Sprintf("%d %s", status, http.StatusText(status)),
		Header: rw.Header().Clone(), Body: bytes.Join(parts, nil)}
}

// abort sends the first parts of a response, presses stop, and waits for
// the client to hang up; a client that does not is cut off after
// CancelWait. Without OnCancel the connection is cut at once. What was sent
// is recorded as the response; cut reports that the connection must be cut.
func (s *Simulator) abort(rw http.ResponseWriter, r *http.Request, in *cassette.Interaction, contentType string, parts [][]byte) (cut bool) {
	s.answer(rw, in, http.StatusOK, contentType, parts)
	if s.OnCancel == nil {
		return true
	}
	delay := s.StopDelay
	if delay == 0 {
		delay = 100 * time.Millisecond
	}
	select {
	case <-r.Context().Done():
		return false // the client hung up by itself
	case <-time.After(delay):
	}
	s.OnCancel()
	wait := s.CancelWait
	if wait == 0 {
		wait = 5 * time.Second
	}
	select {
	case <-r.Context().Done():
		return false
	case <-time.After(wait):
		s.notes = append(s.notes, fmt.Sprintf("step %d: the client kept the aborted response open %v after the user pressed stop", s.served, wait))
		return true
	}
}

// credentialFree copies h without the headers that carry credentials.
func credentialFree(h http.Header) http.Header {
	out := h.Clone()
	for _, k := range []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key", "Cookie"} {
		out.Del(k)
	}
	return out
}
