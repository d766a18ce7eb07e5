package redact

import (
	"bytes"
	"fmt"
	"net/http"
	"sort"
)

// Leak is a value shaped like a live credential, found where a cassette was
// about to be written. Its message names the field and the kind of secret
// but shows only the secret's first characters.
type Leak struct {
	Field  string // e.g. "request.headers.X-Custom", "response.body"
	Kind   string // e.g. "an OpenAI API key"
	Offset int64  // byte offset of the secret in the field's value
	Prefix string // the secret's first characters, for the reader to find it
}

func (l *Leak) Error() string {
	return fmt.Sprintf("%s holds what looks like %s (%q…, at byte %d)", l.Field, l.Kind, l.Prefix, l.Offset)
}

// A shape is one kind of token: a literal prefix followed by a run of
// base64url characters that must pass check.
type shape struct {
	prefix string
	kind   string
	check  func(run []byte) bool // run starts right after prefix
}

var shapes = []shape{
	// Anthropic before OpenAI: both start "sk-".
	{"sk-ant-", "an Anthropic API key", func(run []byte) bool { return mixed(run, 20) }},
	{"sk-", "an OpenAI API key", func(run []byte) bool { return !bytes.HasPrefix(run, []byte("ant-")) && mixed(run, 20) }},
	{"AIza", "a Google API key", func(run []byte) bool { return len(run) >= 35 }},
	{"eyJ", "a JSON Web Token", isJWT},
}

// maxToken bounds the length of a token the streaming Scanner can find.
// Real keys are under 200 characters and JWTs a few kilobytes.
const maxToken = 16 << 10

// tokenByte reports whether c can be part of a key (base64url).
func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// run returns the token bytes of b from its start.
func run(b []byte) []byte {
	for i, c := range b {
		if !tokenByte(c) {
			return b[:i]
		}
	}
	return b
}

// mixed reports whether run is long enough and has upper case, lower case
// and digits, as generated keys do and prose such as "sk-learn-pipeline"
// does not.
func mixed(run []byte, min int) bool {
	if len(run) < min {
		return false
	}
	var upper, lower, digit bool
	for _, c := range run {
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	return upper && lower && digit
}

// isJWT checks header.payload.signature after the leading "eyJ": both JSON
// parts are base64url of an object, so the payload starts "eyJ" too.
func isJWT(rest []byte) bool {
	head := run(rest)
	if len(head) < 10 || len(head) == len(rest) || rest[len(head)] != '.' {
		return false
	}
	rest = rest[len(head)+1:]
	if !bytes.HasPrefix(rest, []byte("eyJ")) {
		return false
	}
	payload := run(rest)
	return len(payload) >= 13 && len(payload) < len(rest) && rest[len(payload)] == '.'
}

// Scan looks for a credential in data and returns the first one found, or
// nil. field names data in the returned Leak.
func Scan(field string, data []byte) *Leak {
	return scan(field, data, 0, 0)
}

// scan searches data for tokens that start at or after index from; base is
// the offset of data[0] in the whole value.
func scan(field string, data []byte, from int, base int64) *Leak {
	best := -1
	var found shape
	for _, s := range shapes {
		p := []byte(s.prefix)
		for i := from; i <= len(data)-len(p); {
			j := bytes.Index(data[i:], p)
			if j < 0 {
				break
			}
			at := i + j
			if best >= 0 && at >= best {
				break
			}
			if (at == 0 || !tokenByte(data[at-1]) && data[at-1] != '.') && s.check(data[at+len(p):]) {
				best, found = at, s
				break
			}
			i = at + 1
		}
	}
	if best < 0 {
		return nil
	}
	end := min(len(data), best+len(found.prefix)+4)
	return &Leak{Field: field, Kind: found.kind, Offset: base + int64(best), Prefix: string(data[best:end])}
}

// ScanHeader scans every value of h; fields are named prefix.Name.
func ScanHeader(prefix string, h http.Header) *Leak {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			if l := Scan(prefix+"."+k, []byte(v)); l != nil {
				return l
			}
		}
	}
	return nil
}

// Scanner scans a value that arrives in pieces, such as a streamed body,
// without holding it. A token can only start after a byte that is not part
// of a token, so between writes it keeps just the trailing run of token
// bytes (up to maxToken) and the byte before it.
type Scanner struct {
	field string
	tail  []byte // unfinished trailing run, with the byte before it when from is 1
	from  int    // index in tail where a token may start
	seen  int64  // offset of tail[0] in the whole value
	leak  *Leak
}

// NewScanner returns a Scanner whose leaks are named field.
func NewScanner(field string) *Scanner { return &Scanner{field: field} }

// Write scans p. It never fails, so it can sit in an io.MultiWriter.
func (s *Scanner) Write(p []byte) (int, error) {
	if s.leak != nil || len(p) == 0 {
		return len(p), nil
	}
	buf := p
	if len(s.tail) > 0 {
		buf = append(s.tail, p...)
	}
	if s.leak = scan(s.field, buf, s.from, s.seen); s.leak != nil {
		s.tail = nil
		return len(p), nil
	}
	i := len(buf)
	for i > 0 && (tokenByte(buf[i-1]) || buf[i-1] == '.') {
		i--
	}
	keep := 0
	switch {
	case len(buf)-i > maxToken: // longer than any token: nothing can start in it
		keep, s.from = len(buf)-1, 1
	case i > 0:
		keep, s.from = i-1, 1
	}
	s.seen += int64(keep)
	s.tail = append(s.tail[:0:0], buf[keep:]...)
	return len(p), nil
}

// Leak returns the first credential found so far, or nil.
func (s *Scanner) Leak() *Leak { return s.leak }
