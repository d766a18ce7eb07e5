// Package reqmatch computes what replay and cassette.Matcher share: the match
// key of a recorded or incoming request, and the explanation of a miss.
package reqmatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"slices"
	"strings"
)

// canonical returns body with object keys sorted, insignificant whitespace
// removed and the wire's volatile fields left out, so two requests that
// differ only in those ways compare equal as bytes. Strings and numbers are
// kept as written. A body that is not JSON is its own canonical form.
func canonical(wire string, body []byte) []byte {
	return AppendCanonical(nil, Volatile(wire), body)
}

// AppendCanonical appends the canonical form of body without the fields at
// the skip paths.
func AppendCanonical(dst []byte, skip [][]string, body []byte) []byte {
	if len(bytes.TrimSpace(body)) == 0 {
		return dst
	}
	c := canonicalizer{data: body, skip: skip}
	var top []string // nil: no field to skip
	if len(c.skip) > 0 {
		top = []string{}
	}
	out, err := c.value(dst, 0, top)
	if err == nil {
		c.space()
		if c.i != len(body) {
			err = errSyntax
		}
	}
	if err != nil {
		return append(dst[:len(dst):len(dst)], body...)
	}
	return out
}

var errSyntax = errors.New("not JSON")

// canonicalizer is a small JSON reader that writes the canonical form as it
// goes, so matching a request does not build a map[string]any of the whole
// body, whose allocations would be most of replay matching's cost.
type canonicalizer struct {
	data    []byte
	i       int
	skip    [][]string
	tmp     []byte   // scratch for reordering members
	members []member // a stack: each open object's members sit on top
}

func (c *canonicalizer) space() {
	for c.i < len(c.data) {
		switch c.data[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// value appends the canonical form of the value at c.i. path is the chain of
// keys from the top, kept only while it can still lead to a skipped field.
func (c *canonicalizer) value(dst []byte, depth int, path []string) ([]byte, error) {
	if depth > 10000 {
		return nil, errSyntax
	}
	c.space()
	if c.i >= len(c.data) {
		return nil, errSyntax
	}
	switch b := c.data[c.i]; {
	case b == '{':
		return c.object(dst, depth, path)
	case b == '[':
		c.i++
		dst = append(dst, '[')
		c.space()
		if c.i < len(c.data) && c.data[c.i] == ']' {
			c.i++
			return append(dst, ']'), nil
		}
		for {
			var err error
			if dst, err = c.value(dst, depth+1, nil); err != nil {
				return nil, err
			}
			c.space()
			if c.i >= len(c.data) {
				return nil, errSyntax
			}
			switch c.data[c.i] {
			case ',':
				c.i++
				dst = append(dst, ',')
				continue
			case ']':
				c.i++
				return append(dst, ']'), nil
			}
			return nil, errSyntax
		}
	case b == '"':
		start := c.i
		if err := c.str(); err != nil {
			return nil, err
		}
		return append(dst, c.data[start:c.i]...), nil
	case b == '-' || b >= '0' && b <= '9':
		start := c.i
		if err := c.number(); err != nil {
			return nil, err
		}
		return append(dst, c.data[start:c.i]...), nil
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(c.data[c.i:], []byte(lit)) {
			c.i += len(lit)
			return append(dst, lit...), nil
		}
	}
	return nil, errSyntax
}

// member is one key and value of an object, as spans of the output.
type member struct {
	key        []byte // for sorting: the raw key, or unescaped when it has escapes
	start, end int
}

func byKey(a, b member) int { return bytes.Compare(a.key, b.key) }

func (c *canonicalizer) object(dst []byte, depth int, path []string) ([]byte, error) {
	c.i++
	base := len(dst)
	dst = append(dst, '{')
	first := len(c.members)
	c.space()
	if c.i < len(c.data) && c.data[c.i] == '}' {
		c.i++
		return append(dst, '}'), nil
	}
	for {
		c.space()
		if c.i >= len(c.data) || c.data[c.i] != '"' {
			return nil, errSyntax
		}
		ks := c.i
		if err := c.str(); err != nil {
			return nil, err
		}
		rawKey := c.data[ks:c.i]
		key := rawKey[1 : len(rawKey)-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var k string
			if err := json.Unmarshal(rawKey, &k); err != nil {
				return nil, errSyntax
			}
			key = []byte(k)
		}
		c.space()
		if c.i >= len(c.data) || c.data[c.i] != ':' {
			return nil, errSyntax
		}
		c.i++
		sub, drop := c.follow(path, key)
		start := len(dst)
		if len(c.members) > first {
			dst = append(dst, ',')
		}
		dst = append(dst, rawKey...)
		dst = append(dst, ':')
		var err error
		if dst, err = c.value(dst, depth+1, sub); err != nil {
			return nil, err
		}
		if drop {
			dst = dst[:start]
		} else {
			c.members = append(c.members, member{key: key, start: start, end: len(dst)})
		}
		c.space()
		if c.i >= len(c.data) {
			return nil, errSyntax
		}
		if c.data[c.i] == ',' {
			c.i++
			continue
		}
		if c.data[c.i] != '}' {
			return nil, errSyntax
		}
		c.i++
		break
	}
	members := c.members[first:]
	if !slices.IsSortedFunc(members, byKey) {
		// Rewrite the members in key order from a copy of the object.
		c.tmp = append(c.tmp[:0], dst[base:]...)
		slices.SortStableFunc(members, byKey)
		dst = append(dst[:base], '{')
		for i, m := range members {
			span := c.tmp[m.start-base : m.end-base]
			if span[0] == ',' {
				span = span[1:]
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, span...)
		}
	}
	c.members = c.members[:first]
	return append(dst, '}'), nil
}

// follow returns the path below key when it can still lead to a volatile
// field, and whether key itself is one. A nil path means nothing below is
// skipped.
func (c *canonicalizer) follow(path []string, key []byte) (sub []string, drop bool) {
	if path == nil {
		return nil, false
	}
	n := len(path)
	for _, p := range c.skip {
		if len(p) <= n || p[n] != string(key) || !slices.Equal(p[:n], path) {
			continue
		}
		if len(p) == n+1 {
			return nil, true
		}
		sub = p[:n+1]
	}
	return sub, false
}

func (c *canonicalizer) str() error {
	c.i++ // opening quote
	for c.i < len(c.data) {
		b := c.data[c.i]
		if b >= 0x20 && b != '"' && b != '\\' {
			c.i++ // the common case, kept tight
			continue
		}
		switch {
		case b == '"':
			c.i++
			return nil
		case b == '\\':
			if c.i+1 >= len(c.data) {
				return errSyntax
			}
			switch c.data[c.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				c.i += 2
			case 'u':
				if c.i+6 > len(c.data) {
					return errSyntax
				}
				for _, h := range c.data[c.i+2 : c.i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return errSyntax
					}
				}
				c.i += 6
			default:
				return errSyntax
			}
		case b < 0x20:
			return errSyntax
		default:
			c.i++
		}
	}
	return errSyntax
}

func (c *canonicalizer) number() error {
	d := c.data
	if c.i < len(d) && d[c.i] == '-' {
		c.i++
	}
	switch {
	case c.i < len(d) && d[c.i] == '0':
		c.i++
	case c.i < len(d) && d[c.i] >= '1' && d[c.i] <= '9':
		c.digits()
	default:
		return errSyntax
	}
	if c.i < len(d) && d[c.i] == '.' {
		c.i++
		if c.digits() == 0 {
			return errSyntax
		}
	}
	if c.i < len(d) && (d[c.i] == 'e' || d[c.i] == 'E') {
		c.i++
		if c.i < len(d) && (d[c.i] == '+' || d[c.i] == '-') {
			c.i++
		}
		if c.digits() == 0 {
			return errSyntax
		}
	}
	return nil
}

func (c *canonicalizer) digits() int {
	n := 0
	for c.i < len(c.data) && c.data[c.i] >= '0' && c.data[c.i] <= '9' {
		c.i++
		n++
	}
	return n
}

// DecodeJSON reads body as one JSON value with numbers kept as text, for
// diffs, or reports false when it is not JSON.
func DecodeJSON(body []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

// Target is the part of a URL replay matches on: the path and the query with
// its parameters sorted (credentials in it are already masked).
func Target(rawURL string) string {
	if t, ok := plainTarget(rawURL); ok {
		return t
	}
	return parsedTarget(rawURL)
}

// parsedTarget is Target for any URL.
func parsedTarget(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	t := u.EscapedPath()
	if t == "" {
		t = "/"
	}
	if u.RawQuery != "" {
		q, err := url.ParseQuery(u.RawQuery)
		if err != nil {
			return t + "?" + u.RawQuery
		}
		t += "?" + q.Encode()
	}
	return t
}

// plainTarget is Target for the common URL, scheme://host/path with no
// fragment or escapes and a query that is already in its sorted form (as
// Anthropic's SDK sends "?beta=true"), without parsing it: the path and
// query are as given.
func plainTarget(rawURL string) (string, bool) {
	rest, ok := strings.CutPrefix(rawURL, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(rawURL, "http://"); !ok {
			return "", false
		}
	}
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return "", false
	}
	host, port, _ := strings.Cut(rest[:slash], ":") // a plain host[:port]
	for _, c := range []byte(host) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return "", false
		}
	}
	for _, c := range []byte(port) {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	path, query, hasQuery := strings.Cut(rest[slash:], "?")
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c <= ' ' || c >= 0x7f || c == '%' || c == '#' || c == '\\' || c == '"' || c == '<' || c == '>' || c == '^' || c == '`' || c == '{' || c == '|' || c == '}' {
			return "", false
		}
	}
	if !hasQuery || query == "" {
		return path, true
	}
	if !sortedQuery(query) {
		return "", false
	}
	return rest[slash:], true
}

// sortedQuery reports whether query is what url.Values.Encode makes of it:
// key=value pairs of characters that need no escaping, keys in order.
func sortedQuery(query string) bool {
	last := ""
	for pair := range strings.SplitSeq(query, "&") {
		key, value, ok := strings.Cut(pair, "=")
		if !ok || !unreserved(key) || !unreserved(value) || key < last {
			return false
		}
		last = key
	}
	return true
}

// unreserved reports whether s is made only of the characters that
// url.QueryEscape leaves as they are.
func unreserved(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~') {
			return false
		}
	}
	return true
}
