package cassette

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// headers reads a header mapping: each key maps to a list of strings, a
// single string, or null. Keys are made canonical, and repeated keys (in any
// case) are merged in order, so no value is lost.
func (d *yamlDoc) headers(n *yaml.Node, what string) (http.Header, error) {
	m, err := d.node(n)
	if err != nil {
		return nil, err
	}
	if isNull(m) {
		return http.Header{}, nil
	}
	if m.Kind != yaml.MappingNode {
		return nil, d.errorf(m, "expected a mapping for %s, found %s", what, kindName(m))
	}
	h := make(http.Header, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, err := d.str(m.Content[i], what+" key")
		if err != nil {
			return nil, err
		}
		ck := http.CanonicalHeaderKey(k)
		if _, ok := h[ck]; !ok {
			h[ck] = []string{}
		}
		v, err := d.node(m.Content[i+1])
		if err != nil {
			return nil, err
		}
		where := what + "." + k
		switch {
		case isNull(v):
		case v.Kind == yaml.ScalarNode:
			s, err := d.str(v, where)
			if err != nil {
				return nil, err
			}
			h[ck] = append(h[ck], s)
		case v.Kind == yaml.SequenceNode:
			for _, item := range v.Content {
				s, err := d.str(item, where)
				if err != nil {
					return nil, err
				}
				h[ck] = append(h[ck], s)
			}
		default:
			return nil, d.errorf(v, "expected a list of strings for %s, found %s", where, kindName(v))
		}
	}
	return h, nil
}

// duration reads a go-vcr duration: a Go duration string ("1.5s", as go-vcr
// v2+ writes), "" (go-vcr v1), an integer (nanoseconds, a time.Duration
// written as a number) or a float (seconds).
func (d *yamlDoc) duration(n *yaml.Node, what string) (time.Duration, error) {
	n, err := d.node(n)
	if err != nil {
		return 0, err
	}
	if isNull(n) {
		return 0, nil
	}
	if n.Kind != yaml.ScalarNode {
		return 0, d.errorf(n, "expected a duration for %s, found %s", what, kindName(n))
	}
	v, ok := parseDuration(n.Value, n.ShortTag())
	if !ok {
		return 0, d.errorf(n, "expected a duration such as 1.5s for %s, found %q", what, clip(n.Value, 40))
	}
	return v, nil
}

func parseDuration(s, tag string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return 0, true
	case tag == "!!int":
		v, err := strconv.ParseInt(s, 10, 64)
		return time.Duration(v), err == nil
	case tag == "!!float":
		v, err := strconv.ParseFloat(s, 64)
		return time.Duration(v * float64(time.Second)), err == nil && v >= -1e9 && v <= 1e9
	}
	v, err := time.ParseDuration(s)
	return v, err == nil
}

// statusText builds the go-vcr `status` string ("200 OK") from a code and a
// reason phrase, falling back to the standard phrase.
func statusText(code int, reason string) string {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		reason = http.StatusText(code)
	}
	if reason == "" {
		return strconv.Itoa(code)
	}
	return strconv.Itoa(code) + " " + reason
}

// interactionList returns the sequence under key in the root mapping and the
// interaction mappings in it.
func (d *yamlDoc) interactionList(key string) ([]*yaml.Node, error) {
	fs, _, err := d.fields(d.root, "the cassette")
	if err != nil {
		return nil, err
	}
	f, ok := fs[key]
	if !ok {
		return nil, d.errorf(d.root, "expected a mapping with `%s` at the top", key)
	}
	return d.items(f.value, "`"+key+"`")
}

// side is a request or response mapping and the line it starts on.
type side struct {
	fs   map[string]field
	line int
}

// sides returns an interaction's request and response mappings.
func (d *yamlDoc) sides(n *yaml.Node, i int) (req, resp side, err error) {
	what := "interaction " + strconv.Itoa(i)
	n, err = d.node(n)
	if err != nil {
		return req, resp, err
	}
	fs, _, err := d.fields(n, what)
	if err != nil {
		return req, resp, err
	}
	for _, k := range []string{"request", "response"} {
		if _, ok := fs[k]; !ok {
			return req, resp, d.errorf(n, "%s has no `%s`", what, k)
		}
	}
	req.line, resp.line = fs["request"].key.Line, fs["response"].key.Line
	if req.fs, _, err = d.fields(fs["request"].value, what+" request"); err != nil {
		return req, resp, err
	}
	resp.fs, _, err = d.fields(fs["response"].value, what+" response")
	return req, resp, err
}

// optStr reads an optional string entry; a missing key is "".
func (d *yamlDoc) optStr(fs map[string]field, key, what string) (string, error) {
	f, ok := fs[key]
	if !ok {
		return "", nil
	}
	return d.str(f.value, what+" "+key)
}

// optHeaders reads an optional header mapping.
func (d *yamlDoc) optHeaders(fs map[string]field, key, what string) (http.Header, error) {
	f, ok := fs[key]
	if !ok {
		return http.Header{}, nil
	}
	return d.headers(f.value, what+" "+key)
}

func bodyBytes(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(s)
}
