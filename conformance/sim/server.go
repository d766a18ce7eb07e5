package sim

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/llmtck/llmtck/conformance"
	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/cassette"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers"
)

// maxBody bounds a request body; the real API's limit is 32 MB.
const maxBody = 32 << 20

// Options configure a Server.
type Options struct {
	// Key signs the tokens the simulator mints. Nil means a key derived from
	// the scenario's name, so runs are reproducible byte for byte.
	Key []byte
}

// Server simulates the provider for one conversation of a scenario. It is
// an http.Handler serving the wire's endpoint: each request is judged by the
// rules against the conversation so far, then answered with the next
// step's response, or with the provider's own error status and body.
type Server struct {
	sc    *Scenario
	codec providers.Codec
	mint  minter

	mu         sync.Mutex
	history    []engine.Exchange // accepted calls, responses decoded
	findings   []conformance.Finding
	rejections []Rejection
	log        []*cassette.Interaction // every call, rejected ones included
}

// Rejection is a request the simulator refused.
type Rejection struct {
	Step int // the step the request asked for, 0-based
	// Check is the ID of the check the request breaks; "" for a request
	// outside any check (wrong path, missing version header, one call too many).
	Check    string
	Location string // JSON path in the request body, e.g. "messages[1].content[0]"
	Status   int
	Message  string // the provider's error text, as sent back
	Detail   string // llmtck's account of what was wrong
}

func (r Rejection) String() string {
	return fmt.Sprintf("step %d: HTTP %d %s %s: %s (%s)", r.Step, r.Status, r.Check, r.Location, r.Message, r.Detail)
}

// New returns a simulator for one conversation of sc.
func New(sc *Scenario, opts Options) *Server {
	key := opts.Key
	if key == nil {
		sum := sha256.Sum256([]byte("llmtck simulator " + sc.Name))
		key = sum[:]
	}
	return &Server{sc: sc, codec: providers.For(sc.Wire), mint: minter{key: key}}
}

// Scenario is the scenario served.
func (s *Server) Scenario() *Scenario { return s.sc }

// Served is how many steps have been answered.
func (s *Server) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.history)
}

// Done reports whether every step has been served.
func (s *Server) Done() bool { return s.Served() == len(s.sc.Steps) }

// Rejections lists the requests refused, in order.
func (s *Server) Rejections() []Rejection {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Rejection(nil), s.rejections...)
}

// Findings lists every finding of the check catalogue on the requests
// received, warnings and info included.
func (s *Server) Findings() []conformance.Finding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]conformance.Finding(nil), s.findings...)
}

// Exchanges are the accepted calls, decoded.
func (s *Server) Exchanges() []engine.Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]engine.Exchange(nil), s.history...)
}

// WriteCassette writes every call so far, rejected ones included, as a
// cassette at path. Credentials are not kept: the simulator needs none.
func (s *Server) WriteCassette(path string) error {
	s.mu.Lock()
	c := &cassette.Cassette{Path: path, Format: cassette.FormatGoVCRv1, Interactions: append([]*cassette.Interaction(nil), s.log...)}
	s.mu.Unlock()
	return cassette.Save(path, c)
}

// ServeHTTP judges one request and answers it. Requests of one
// conversation are served one at a time, in arrival order.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	in := &cassette.Interaction{Request: cassette.Request{
		Method: r.Method, URL: "https://api.anthropic.com" + r.URL.RequestURI(), Header: credentialFree(r.Header), Body: body,
	}}
	s.log = append(s.log, in)
	step := len(s.history)
	reject := func(rj Rejection) {
		rj.Step = step
		s.rejections = append(s.rejections, rj)
		s.answer(w, in, rj.Status, "application/json", [][]byte{providers.ErrorBody(s.sc.Wire, rj.Status, rj.Message)})
	}
	switch {
	case err != nil:
		reject(Rejection{Status: http.StatusBadRequest, Message: "could not read the request body", Detail: err.Error()})
		return
	case len(body) > maxBody:
		reject(Rejection{Status: http.StatusRequestEntityTooLarge, Message: "Request exceeds the maximum allowed number of bytes.", Detail: "body over 32 MB"})
		return
	case r.Method != http.MethodPost || r.URL.Path != "/v1/messages":
		reject(Rejection{Status: http.StatusNotFound, Message: "Not Found", Detail: r.Method + " " + r.URL.Path + ": the Messages API is POST /v1/messages"})
		return
	case r.Header.Get("Anthropic-Version") == "":
		reject(Rejection{Status: http.StatusBadRequest, Message: "anthropic-version: header is required", Detail: "no anthropic-version header"})
		return
	}
	req, err := s.codec.DecodeRequest(body)
	if err != nil {
		reject(Rejection{Status: http.StatusBadRequest, Message: err.Error(), Detail: "the request does not decode"})
		return
	}
	if step >= len(s.sc.Steps) {
		reject(Rejection{Status: http.StatusBadRequest, Message: fmt.Sprintf("llmtck simulator: scenario %s has %d steps; request %d was not expected", s.sc.Name, len(s.sc.Steps), step+1),
			Detail: "the harness kept calling after the final answer"})
		return
	}
	ex := engine.Exchange{Index: step, Method: r.Method, URL: in.Request.URL, Wire: s.sc.Wire, RequestHeader: in.Request.Header, Request: req}
	if rj, ok := s.judge(ex); ok {
		reject(rj)
		return
	}
	content, err := s.minted(step, req)
	if err != nil { // the scenario was validated when parsed
		reject(Rejection{Status: http.StatusInternalServerError, Message: "llmtck simulator: " + err.Error()})
		return
	}
	st := s.sc.Steps[step]
	if req.Stream {
		s.answer(w, in, http.StatusOK, "text/event-stream", stream(s.sc, step, st, content))
	} else {
		s.answer(w, in, http.StatusOK, "application/json", [][]byte{render(s.sc, step, st, content)})
	}
	ex.Status, ex.ResponseHeader = in.Response.Status, in.Response.Header
	ex.Response, err = s.codec.DecodeResponse(ex.Status, ex.ResponseHeader, in.Response.Body)
	if err != nil {
		ex.ResponseErr = err.Error()
	}
	s.history = append(s.history, ex)
}

// judge runs the check catalogue on ex, then verifies every signature and
// redacted payload it echoes; the first violation the provider would
// reject is returned.
func (s *Server) judge(ex engine.Exchange) (Rejection, bool) {
	var first *conformance.Finding
	for _, f := range conformance.Lint(s.history, ex, nil) {
		s.findings = append(s.findings, f)
		if f.Severity == conformance.SeverityError && first == nil {
			first = &f
		}
	}
	if first == nil {
		first = s.verify(ex)
	}
	if first == nil {
		return Rejection{}, false
	}
	status, msg := conformance.Rejection(*first)
	return Rejection{Check: first.Check, Location: trimSide(first.Location), Status: status, Message: msg, Detail: first.Message}, true
}

// verify checks every thinking signature and redacted payload of ex's
// request against the tokens this simulator minted: an altered or foreign
// token is ANT-THINK-003's "Invalid signature"; a genuine one whose history
// changed, or that moved, is ANT-THINK-009's binding error.
func (s *Server) verify(ex engine.Exchange) *conformance.Finding {
	req := ex.Request
	for i, m := range req.Messages {
		if m.Role != engine.RoleAssistant {
			continue
		}
		for j, b := range m.Blocks {
			if (b.Type != engine.BlockThinking || len(b.Signature) == 0) && (b.Type != engine.BlockRedacted || len(b.Data) == 0) {
				continue
			}
			loc := fmt.Sprintf("request.messages[%d].content[%d]", i, j)
			switch s.mint.verify(req, i, j) {
			case forged:
				f := conformance.Finding{Check: "ANT-THINK-003", Severity: conformance.SeverityError, Interaction: ex.Index, Location: loc,
					Message: fmt.Sprintf("the %s payload at %s is not one the simulator minted for this content", b.Type, loc)}
				s.findings = append(s.findings, f)
				return &f
			case rebound:
				f := conformance.Finding{Check: "ANT-THINK-009", Severity: conformance.SeverityError, Interaction: ex.Index, Location: loc,
					Message: fmt.Sprintf("the %s block at %s was minted after a different history: the system prompt, tools, an earlier message or an earlier block changed, or the block moved", b.Type, loc)}
				s.findings = append(s.findings, f)
				return &f
			}
		}
	}
	return nil
}

// minted is step n's content with its placeholders replaced by tokens
// bound to req and to the blocks before each.
func (s *Server) minted(n int, req *engine.Request) ([]json.RawMessage, error) {
	st := s.sc.Steps[n]
	resp, err := s.codec.DecodeResponse(http.StatusOK, nil, render(s.sc, n, st, fillAll(st.Content)))
	if err != nil || len(resp.Output) != 1 || len(resp.Output[0].Blocks) != len(st.Content) {
		return nil, fmt.Errorf("step %d does not decode: %v", n, err)
	}
	blocks := resp.Output[0].Blocks
	out := make([]json.RawMessage, len(st.Content))
	placeholder := []byte(`"` + Placeholder + `"`)
	for j, raw := range st.Content {
		out[j] = raw
		var tok string
		switch blocks[j].Type {
		case engine.BlockThinking:
			tok = s.mint.thinking(req, blocks[:j], blocks[j].Text)
			blocks[j].Signature = rawjson.Quote(tok)
		case engine.BlockRedacted:
			tok = s.mint.redacted(req, blocks[:j], s.nonce(n, j))
			blocks[j].Data = rawjson.Quote(tok)
		default:
			continue
		}
		out[j] = bytes.Replace(raw, placeholder, rawjson.Quote(tok), 1)
	}
	return out, nil
}

// nonce is what redacted block j of step n stands for: fixed per key, so
// runs repeat.
func (s *Server) nonce(n, j int) []byte {
	h := hmac.New(sha256.New, s.mint.key)
	fmt.Fprintf(h, "redacted %s %d %d", s.sc.Name, n, j)
	return h.Sum(nil)[:tagSize]
}

// answer writes the response, flushing each part (one SSE event each for a
// stream) as it goes, and records it.
func (s *Server) answer(w http.ResponseWriter, in *cassette.Interaction, status int, contentType string, parts [][]byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Request-Id", fmt.Sprintf("req_sim%04d", len(s.log)))
	w.WriteHeader(status)
	flusher, _ := w.(http.Flusher)
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			break // the client went away; the whole answer is still recorded
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
	in.Response = cassette.Response{Status: status, StatusText: fmt.Sprintf("%d %s", status, http.StatusText(status)),
		Header: w.Header().Clone(), Body: bytes.Join(parts, nil)}
}

// credentialFree copies h without the headers that carry credentials.
func credentialFree(h http.Header) http.Header {
	out := h.Clone()
	for _, k := range []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key", "Cookie"} {
		out.Del(k)
	}
	return out
}

func trimSide(loc string) string { return strings.TrimPrefix(loc, "request.") }
