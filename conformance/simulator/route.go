package simulator

import (
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/engine"
)

// WireForPath is the provider a request path belongs to, so that one
// listener can serve every provider a scenario talks to. The paths are
// those the official SDKs call under their base URL.
func WireForPath(p string) (engine.Wire, bool) {
	switch {
	case p == "/v1/messages", strings.HasPrefix(p, "/v1/messages/"):
		return engine.WireAnthropic, true
	case p == "/v1/chat/completions":
		return engine.WireOpenAI, true
	case p == "/v1/responses":
		return engine.WireResponses, true
	case strings.HasPrefix(p, "/v1beta/models/"), strings.HasPrefix(p, "/v1/models/"), strings.HasPrefix(p, "/v1alpha/models/"):
		return engine.WireGemini, true
	case strings.HasPrefix(p, "/model/"):
		return engine.WireBedrock, true
	}
	return "", false
}

// Endpoints are the paths each simulated provider answers under the base
// URL, for startup lines and help.
var Endpoints = map[engine.Wire]string{
	engine.WireAnthropic: "POST /v1/messages",
	engine.WireOpenAI:    "POST /v1/chat/completions",
	engine.WireResponses: "POST /v1/responses",
	engine.WireGemini:    "POST /v1beta/models/MODEL:generateContent (or /v1/models/…)",
	engine.WireBedrock:   "POST /model/MODEL/converse (or /converse-stream)",
}

// Mux serves every provider of the scenario on one handler, picking the
// wire by the request path; a path no wire knows goes to the first
// provider, whose endpoint check answers it as a 404.
func (s *Simulator) Mux() http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w, ok := WireForPath(r.URL.Path)
		if !ok {
			w = s.sc.Wire
		}
		s.serve(w, rw, r)
	})
}
