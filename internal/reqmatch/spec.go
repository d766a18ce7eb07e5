package reqmatch

import (
	"fmt"
	"net/http"
	"strings"
)

// Spec says what must be equal for a recorded request to answer an
// incoming one (cassette.Matcher converts to it). The zero value is the
// default: method, path, query and the body as JSON.
type Spec struct {
	// On lists the parts compared: "method", "path", "query", "body-json"
	// (the JSON value, key order and whitespace aside, the wire's volatile
	// fields and Ignore left out), "body" (the exact bytes) and
	// "header:NAME". Empty means DefaultOn.
	On []string
	// Ignore are paths of object keys ("metadata.user_id", "temperature")
	// that body-json leaves out, besides the wire's own volatile fields.
	Ignore []string
}

// DefaultOn is what replay compares unless told otherwise.
var DefaultOn = []string{"method", "path", "query", "body-json"}

// Parse reads --match (a comma-separated list of DefaultOn's parts,
// "body" or "header:NAME") and the --match-ignore paths.
func Parse(on string, ignore []string) (Spec, error) {
	var m Spec
	if strings.TrimSpace(on) != "" {
		for _, p := range strings.Split(on, ",") {
			p = strings.TrimSpace(p)
			switch {
			case p == "method", p == "path", p == "query", p == "body-json", p == "body":
			case strings.HasPrefix(p, "header:") && len(p) > len("header:"):
				p = "header:" + http.CanonicalHeaderKey(strings.TrimPrefix(p, "header:"))
			default:
				return Spec{}, fmt.Errorf("--match %q: want a list of method, path, query, body-json, body and header:NAME", p)
			}
			m.On = append(m.On, p)
		}
	}
	for _, path := range ignore {
		if path == "" || strings.HasPrefix(path, ".") || strings.HasSuffix(path, ".") || strings.Contains(path, "..") {
			return Spec{}, fmt.Errorf("--match-ignore %q: want a dotted JSON path such as metadata.user_id", path)
		}
		m.Ignore = append(m.Ignore, path)
	}
	return m, nil
}

// String is the match as flags would give it.
func (m Spec) String() string {
	s := strings.Join(m.on(), ",")
	if len(m.Ignore) > 0 {
		s += " ignoring " + strings.Join(m.Ignore, ", ")
	}
	return s
}

func (m Spec) on() []string {
	if len(m.On) == 0 {
		return DefaultOn
	}
	return m.On
}

func (m Spec) has(part string) bool {
	for _, p := range m.on() {
		if p == part {
			return true
		}
	}
	return false
}

// Key appends a request's match key: the parts m compares, then the body
// as m compares it. target is Target of the URL with its credentials
// masked; header holds the request's headers (recorded ones are redacted,
// so a credential header never matches a live value); wire names the wire
// whose Volatile fields body-json leaves out.
func (m Spec) Key(dst []byte, method, target string, header http.Header, wire string, body []byte) []byte {
	dst = m.head(dst, method, target, header)
	switch {
	case m.has("body"):
		return append(dst, body...)
	case m.has("body-json"):
		return AppendCanonical(dst, m.skips(wire), body)
	}
	return dst
}

// RawKey is Key with the body as sent: equal raw keys mean equal keys, so
// a repeated request skips canonicalising.
func (m Spec) RawKey(dst []byte, method, target string, header http.Header, body []byte) []byte {
	dst = m.head(dst, method, target, header)
	if m.has("body") || m.has("body-json") {
		dst = append(dst, body...)
	}
	return dst
}

// head appends the parts of the key before the body.
func (m Spec) head(dst []byte, method, target string, header http.Header) []byte {
	if m.has("method") {
		dst = append(dst, method...)
	}
	dst = append(dst, ' ')
	path, query, _ := strings.Cut(target, "?")
	if m.has("path") {
		dst = append(dst, path...)
	}
	if m.has("query") && query != "" {
		dst = append(dst, '?')
		dst = append(dst, query...)
	}
	dst = append(dst, '\n')
	for _, p := range m.on() {
		if name, ok := strings.CutPrefix(p, "header:"); ok {
			dst = append(dst, name...)
			dst = append(dst, ':')
			dst = append(dst, strings.Join(header.Values(name), ",")...)
			dst = append(dst, '\n')
		}
	}
	return dst
}

// skips are the JSON paths body-json leaves out on wire.
func (m Spec) skips(wire string) [][]string {
	if len(m.Ignore) == 0 {
		return Volatile(wire)
	}
	out := append([][]string(nil), Volatile(wire)...)
	for _, p := range m.Ignore {
		out = append(out, strings.Split(p, "."))
	}
	return out
}
