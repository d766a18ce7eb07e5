package simulator

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks/retry"
	"github.com/llmtck/llmtck/traffic"
)

// pendingRetry is a failed call that asked for a wait before its retry.
type pendingRetry struct {
	step int
	sent time.Time // when the failed answer was written
}

// serveFault answers the request for step with the step's next scripted
// failure, if one is left: it reports whether it did, and whether the
// connection must be cut. The step is not consumed: the retry gets it again.
func (s *Simulator) serveFault(rw http.ResponseWriter, in *cassette.Interaction, ex traffic.Exchange, step int, parts [][]byte, contentType string, stream bool) (served, drop bool) {
	faults := s.sc.Steps[step].Faults
	if s.attempts == nil {
		s.attempts = map[int]int{}
	}
	k := s.attempts[step]
	if k >= len(faults) {
		return false, false
	}
	s.attempts[step]++
	fa := s.sc.FaultAnswer(faults[k], step, parts, contentType, stream)
	if s.cut == nil {
		s.cut = map[int]bool{}
	}
	s.cut[ex.Index] = true // a failed answer is partial by design
	if s.faulted == nil {
		s.faulted = map[int]bool{}
	}
	s.faulted[ex.Index] = true
	for name, vs := range fa.Header {
		rw.Header()[name] = vs
	}
	s.answer(rw, in, fa.Status, fa.ContentType, fa.Parts)
	s.retry = nil
	if retry.Wait(fa.Header) > 0 {
		s.retry = &pendingRetry{step: step, sent: time.Now()}
	}
	return true, fa.Drop
}

// annotate adds to in the simulator's account of what happened since the
// previous request: the tool executions, and the wait before a retry.
func (s *Simulator) annotate(in *cassette.Interaction, step int, arrived time.Time) {
	if len(s.runs) > 0 {
		in.Request.Header[retry.ToolRunsHeader] = s.runs
		s.runs = nil
	}
	if p := s.retry; p != nil && p.step == step {
		s.retry = nil
		in.Request.Header.Set(retry.RetryGapHeader, strconv.FormatInt(arrived.Sub(p.sent).Milliseconds(), 10))
	}
}

// executed records one execution of tool name with input, for the next
// request's retry.ToolRunsHeader.
func (s *Simulator) executed(name string, input json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs = append(s.runs, name+" "+retry.CompactArgs(input))
}
