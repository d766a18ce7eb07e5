package crosswire

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/internal/redact"
)

// secretCheck is the secret gate: a cassette is committed to a repository,
// so a live credential in it is a leak whatever the provider made of the
// call.
var secretCheck = &check.Check{
	ID: "XP-SECRET-001", Title: "No live credential in the recording", Severity: check.SeverityError, Scope: "C",
	Recording: true,
	Law:       "A recording holds no live credential: credential headers and query parameters hold a placeholder, and no header, URL or body holds a value shaped like an API key, access token or JWT.",
	Troubleshoot: "Run `llmtck redact FILE...` to scrub the cassette in place (it masks credential headers and query parameters and the key shapes llmtck knows), then revoke the key: it has been on disk and maybe in version control. " +
		"Record through `llmtck record` or `llmtck proxy`, which mask credentials before writing and refuse to write a call that holds one anywhere else. " +
		"A test key is recognised as a placeholder when it says so: test-api-key, <ANTHROPIC_API_KEY>, XXX, **REDACTED**.",
	Since: "0.2.0",
	Evidence: check.Evidence{Sources: []string{
		"not a provider rule: a cassette is committed with the tests that replay it, and a credential in it is readable by everyone who can read the repository",
	}},
	Judge: judgeSecret,
}

// credentialHeaders hold a credential whatever their value looks like.
var credentialHeaders = []string{
	"Authorization", "Proxy-Authorization", "X-Api-Key", "Api-Key", "X-Goog-Api-Key",
	"X-Amz-Security-Token", "Ocp-Apim-Subscription-Key",
}

// credentialParams are query parameters that hold a credential.
var credentialParams = []string{"key", "api_key", "apikey", "api-key", "access_token", "X-Amz-Security-Token", "X-Amz-Credential", "X-Amz-Signature"}

func judgeSecret(tr *check.Traffic, r *check.Reporter) {
	reported := map[string]bool{}
	report := func(i int, loc, what string) {
		if reported[loc+"\x00"+what] {
			return // a conversation sends the same key with every request
		}
		reported[loc+"\x00"+what] = true
		r.Add(i, loc, "%s holds %s", loc, what)
	}
	previous := map[string][]byte{} // the last request body sent to each URL
	for i := tr.From; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.Method != "" {
			secretInURL(ex.URL, func(loc, what string) { report(ex.Index, loc, what) })
			secretInHeader("request.headers.", ex.RequestHeader, true, func(loc, what string) { report(ex.Index, loc, what) })
			// A request that repeats the previous one's history was scanned
			// up to where they part: a leak there is reported already.
			from := redact.Resume(previous[ex.URL], ex.RequestBody)
			previous[ex.URL] = ex.RequestBody
			if l := redact.ScanBody("request.body", ex.RequestBody[from:]); l != nil {
				l.Offset += int64(from)
				report(ex.Index, "request.body", leakShape(l))
			}
		}
		secretInHeader("response.headers.", ex.ResponseHeader, false, func(loc, what string) { report(ex.Index, loc, what) })
		if l := redact.ScanAll("response.body", ex.ResponseBody); l != nil {
			report(ex.Index, "response.body", leakShape(l))
		}
	}
}

func secretInURL(raw string, report func(loc, what string)) {
	if l := redact.ScanAll("request.url", []byte(raw)); l != nil {
		report("request.url", leakShape(l))
		return
	}
	u, err := url.Parse(raw)
	if err != nil {
		return
	}
	for name, values := range u.Query() {
		if !slices.ContainsFunc(credentialParams, func(p string) bool { return strings.EqualFold(p, name) }) {
			continue
		}
		for _, v := range values {
			if live(v) {
				report("request.url", "the "+name+"= query parameter unredacted: "+valueShape(v))
			}
		}
	}
}

// secretInHeader reports credential headers that hold a live-looking value
// and, in every other header, a value shaped like a key. Only a request
// carries credential headers; a response's are scanned for shapes.
func secretInHeader(prefix string, h http.Header, request bool, report func(loc, what string)) {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		loc := prefix + strings.ToLower(name)
		credential := request && slices.ContainsFunc(credentialHeaders, func(c string) bool { return strings.EqualFold(c, name) })
		for _, v := range h[name] {
			switch l := redact.ScanAll(loc, []byte(v)); {
			case l != nil:
				report(loc, leakShape(l))
			case credential && live(v):
				report(loc, "an unredacted credential: "+valueShape(v))
			}
		}
	}
}

// live reports whether a credential value looks like a real one: not a
// placeholder, and long and varied enough to be a key (a local server's
// "Bearer ollama" is not one).
func live(v string) bool {
	v = bare(v)
	if redact.Placeholder(v) || len(v) < 16 {
		return false
	}
	return strings.ContainsAny(v, "0123456789") && strings.ContainsFunc(v, func(c rune) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' })
}

// bare is a credential value without its authorization scheme.
func bare(v string) string {
	v = strings.TrimSpace(v)
	for _, scheme := range []string{"Bearer ", "Basic ", "token "} {
		if after, ok := strings.CutPrefix(v, scheme); ok {
			return strings.TrimSpace(after)
		}
	}
	return v
}

// leakShape describes what the scanner found without showing it.
func leakShape(l *redact.Leak) string {
	return fmt.Sprintf("what looks like %s (starting %q, at byte %d)", l.Kind, l.Prefix, l.Offset)
}

// valueShape describes a credential value without showing it: its length
// and first characters.
func valueShape(v string) string {
	v = bare(v)
	head := v
	if len(head) > 4 {
		head = head[:4]
	}
	return fmt.Sprintf("%d characters starting %q", len(v), head)
}
