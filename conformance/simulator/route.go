package simulator

import (
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/traffic"
)

// WireForPath is the provider a request path belongs to, so that one
// listener can serve every provider a scenario talks to. The paths are
// those the official SDKs call under their base URL.
func WireForPath(p string) (traffic.Wire, bool) {
	switch {
	case p == "/v1/messages", strings.HasPrefix(p, "/v1/messages/"):
		return traffic.WireAnthropic, true
	case p == "/v1/chat/completions":
		return traffic.WireOpenAI, true
	case p == "/v1/responses":
		return traffic.WireResponses, true
	case strings.HasPrefix(p, "/v1beta/models/"), strings.HasPrefix(p, "/v1/models/"), strings.HasPrefix(p, "/v1alpha/models/"):
		return traffic.WireGemini, true
	case strings.HasPrefix(p, "/model/"):
		return traffic.WireBedrock, true
	}
	return "", false
}

// Endpoints are the paths each simulated provider answers under the base
// URL, for startup lines and help.
var Endpoints = map[traffic.Wire]string{
	traffic.WireAnthropic: "POST /v1/messages",
	traffic.WireOpenAI:    "POST /v1/chat/completions",
	traffic.WireResponses: "POST /v1/responses",
	traffic.WireGemini:    "POST /v1beta/models/MODEL:generateContent (or /v1/models/…)",
	traffic.WireBedrock:   "POST /model/MODEL/converse (or /converse-stream)",
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
