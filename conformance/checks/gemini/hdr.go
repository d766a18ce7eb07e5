package gemini

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/redact"
)

// gemPlaceholders are credential values that are evidently not secrets.
var gemPlaceholders = []string{"redact", "mask", "fake", "test", "dummy", "placeholder", "example", "xxx", "***", "<", "{", "your"}

// judgeGemHdr001 reports each credential value of a Gemini request that
// is not redacted, once per value: the recorder's policy, not one
// request's fault.
func judgeGemHdr001(tr *check.Traffic, r *check.Reporter) {
	seen := map[string]bool{}
	report := func(i int, loc, what, v string) {
		if gemPlaceholder(v) || seen[loc+v] {
			return
		}
		seen[loc+v] = true
		r.Add(i, loc, "%s is not redacted: it holds %s", what, gemSecretShape(v))
	}
	for i := range tr.Exchanges {
		ex := &tr.Exchanges[i]
		if ex.Wire != engine.WireGemini || ex.Method == "" {
			continue // response-only records have no request side
		}
		for _, name := range []string{"X-Goog-Api-Key", "Authorization"} {
			for _, v := range ex.RequestHeader.Values(name) {
				report(i, "request.headers."+strings.ToLower(name), strings.ToLower(name), strings.TrimPrefix(v, "Bearer "))
			}
		}
		if u, err := url.Parse(ex.URL); err == nil {
			for _, v := range u.Query()["key"] {
				report(i, "request.url", "the key= query parameter", v)
			}
		}
	}
}

// gemPlaceholder reports whether a credential value is a placeholder.
func gemPlaceholder(v string) bool {
	lower := strings.ToLower(strings.TrimSpace(v))
	if lower == "" {
		return true
	}
	for _, p := range gemPlaceholders {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}

// gemSecretShape describes a secret without showing it: its length, its
// first characters, and what it looks like.
func gemSecretShape(v string) string {
	head := v
	if len(head) > 4 {
		head = head[:4]
	}
	kind := "a value that is not a placeholder"
	switch l := redact.Scan("", []byte(v)); {
	case l != nil:
		kind = "what looks like " + l.Kind
	case strings.HasPrefix(v, "ya29."):
		kind = "what looks like a Google OAuth access token"
	}
	return fmt.Sprintf("%s (%d characters starting %q)", kind, len(v), head)
}
