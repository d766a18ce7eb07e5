package scenario

import (
	"fmt"
	"net/http"
	"sort"

	"github.com/llmtck/llmtck/traffic"
)

// A wire is one provider API as the simulator serves it. Each lives in its
// own file (anthropic.go, openai.go, responses.go, gemini.go) and is listed
// in wires.
type wire interface {
	// endpoint checks that r is a call to the wire's generation endpoint
	// with the headers the provider insists on; stream reports a stream
	// asked for by the path (Gemini), not the body.
	endpoint(r *http.Request) (stream bool, f *Fault)
	// checkStep tells a step the wire cannot serve, at parse time: content
	// that does not decode, a tool not among tools, an opaque token that is
	// not Placeholder. The error starts with the step field at fault
	// ("content[1].signature: ...").
	checkStep(s *Scenario, st Step, tools map[string]bool) error
	// respond renders step n of s as the response to req, its placeholders
	// minted by m and bound to req: one part for a JSON body, one per event
	// for a stream.
	respond(m *Minter, s *Scenario, n int, req *traffic.Request, stream bool) (parts [][]byte, err error)
	// verify checks each opaque token req echoes against what m minted.
	verify(m *Minter, req *traffic.Request) *Fault
}

// wires are the simulated providers, by wire.
var wires = map[traffic.Wire]wire{
	traffic.WireAnthropic: anthropic{},
	traffic.WireOpenAI:    chat{},
	traffic.WireResponses: responses{},
	traffic.WireGemini:    gem{},
	traffic.WireBedrock:   bedrock{},
}

func wireNames() []string {
	var out []string
	for w := range wires {
		out = append(out, string(w))
	}
	sort.Strings(out)
	return out
}

// Fault is a request the simulated provider refuses by its own rules: a
// wrong endpoint or header, or an opaque token it did not mint for that
// place. The check catalogue's findings come on top.
type Fault struct {
	// Check names the catalogue check the fault breaks; "" for a request
	// outside any (wrong path, missing header).
	Check    string
	Location string // JSON path in the request body, "request.messages[1].content[0]"
	// Status and Message are the provider's answer when Check is ""; with a
	// Check, the caller answers as the check's rejection says.
	Status  int
	Message string
	Detail  string // llmtck's account of what was wrong
	// Warning marks a fault the provider is not known to refuse (no
	// public evidence): the simulator reports it and answers anyway.
	Warning bool
}

func (f *Fault) Error() string {
	return fmt.Sprintf("%s %s: %s", f.Check, f.Location, f.Detail)
}

// Endpoint checks that r calls w's generation endpoint; stream reports a
// stream asked for by the path.
func Endpoint(w traffic.Wire, r *http.Request) (stream bool, f *Fault) {
	impl := wires[w]
	if impl == nil {
		return false, &Fault{Status: http.StatusNotFound, Message: "Not Found", Detail: "no simulator for " + string(w)}
	}
	return impl.endpoint(r)
}

// Respond renders step n as the response to req: the body's parts (one
// per stream event, or the one JSON body) and its content type.
func (s *Scenario) Respond(m *Minter, n int, req *traffic.Request, stream bool) (parts [][]byte, contentType string, err error) {
	if n < 0 || n >= len(s.Steps) {
		return nil, "", fmt.Errorf("scenario %s has no step %d", s.Name, n)
	}
	parts, err = wires[s.Steps[n].Wire].respond(m, s, n, req, stream)
	if stream && s.Steps[n].Wire == traffic.WireBedrock {
		return parts, EventStreamType, err
	}
	if stream {
		return parts, "text/event-stream", err
	}
	return parts, "application/json", err
}

// Verify checks every opaque token req, a request on wire w, echoes: a
// token the minter did not produce for that content, or one moved away from
// the history it was minted after, is a Fault naming the check it breaks.
func Verify(m *Minter, w traffic.Wire, req *traffic.Request) *Fault {
	impl := wires[w]
	if impl == nil {
		return nil
	}
	return impl.verify(m, req)
}
