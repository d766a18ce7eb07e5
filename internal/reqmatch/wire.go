package reqmatch

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
)

// volatile lists, per wire, request fields that change from run to run
// without changing what is asked (a per-session user id, a cache key), as
// paths of object keys from the top. Replay matching ignores them.
var volatile = map[string][][]string{
	"anthropic": {{"metadata", "user_id"}},
	"openai":    {{"user"}, {"safety_identifier"}, {"prompt_cache_key"}},
	"responses": {{"user"}, {"safety_identifier"}, {"prompt_cache_key"}},
}

// Volatile returns the JSON paths body-json leaves out of a request on wire
// (the name of a traffic.Wire).
func Volatile(wire string) [][]string { return volatile[wire] }

// WireOf names the wire of a request as providers.Detect does, as far as
// Volatile needs it: "anthropic", "openai", "responses", or "" for any
// other. The cassette package cannot ask providers, which reads cassettes;
// a proxy test holds the two to the same answers.
func WireOf(rawURL string, body []byte) string {
	if rawURL != "" {
		var p string
		if u, err := url.Parse(rawURL); err == nil {
			p = strings.TrimSuffix(u.Path, "/")
		}
		switch {
		case strings.HasSuffix(p, "/messages") && !strings.Contains(p, "/threads/"),
			strings.HasSuffix(p, ":rawPredict"), strings.HasSuffix(p, ":streamRawPredict"):
			return "anthropic"
		case strings.Contains(p, "/model/") && (strings.HasSuffix(p, "/invoke") || strings.HasSuffix(p, "/invoke-with-response-stream")):
			if m := strings.ToLower(p); strings.Contains(m, "anthropic") || strings.Contains(m, "claude") {
				return "anthropic"
			}
			return ""
		case strings.Contains(p, "/model/") && (strings.HasSuffix(p, "/converse") || strings.HasSuffix(p, "/converse-stream")):
			return ""
		case strings.HasSuffix(p, "/chat/completions"):
			return "openai"
		case strings.HasSuffix(p, "/responses"):
			return "responses"
		case strings.HasSuffix(p, ":generateContent"), strings.HasSuffix(p, ":streamGenerateContent"):
			return ""
		}
		if !bytes.Contains(body, []byte(`"anthropic_version"`)) {
			return ""
		}
	}
	// A URL that names no endpoint but a body for Claude's routes, or no
	// URL: the request's shape says.
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return ""
	}
	switch {
	case m["contents"] != nil:
		return ""
	case m["input"] != nil && m["messages"] == nil:
		return "responses"
	case m["anthropic_version"] != nil:
		return "anthropic"
	case m["messages"] != nil:
		s := string(m["messages"])
		if m["system"] != nil || strings.Contains(s, `"tool_use"`) || strings.Contains(s, `"tool_result"`) || strings.Contains(s, `"thinking"`) {
			return "anthropic"
		}
		return "openai"
	}
	return ""
}
