package redact

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
)

// Leak is a value shaped like a live credential, found where a cassette was
// about to be written. Its message names the field and the kind of secret
// but shows only the secret's first characters.
type Leak struct {
	Field  string // e.g. "request.headers.X-Custom", "response.body"
	Rule   string // the rule that matched, e.g. "huggingface-access-token"
	Kind   string // e.g. "an OpenAI API key"
	Offset int64  // byte offset of the secret in the field's value
	Length int    // the secret's length in the field's value
	Prefix string // the public prefix keys of its kind start with ("hf_"), or ""
}

// Error names the field, the rule and the offset, never the secret.
func (l *Leak) Error() string {
	return fmt.Sprintf("%s holds what looks like %s (rule %s, at byte %d)", l.Field, l.Kind, l.Rule, l.Offset)
}

// A shape is one kind of token: a literal prefix followed by a run of
// base64url characters that must pass check.
type shape struct {
	prefix string
	rule   string // gitleaks' rule id where gitleaks has one
	kind   string
	check  func(run []byte) bool // run starts right after prefix
}

var shapes = []shape{
	// Anthropic and OpenRouter before OpenAI: all start "sk-".
	{"sk-ant-admin01-", "anthropic-admin-api-key", "an Anthropic admin API key", func(rest []byte) bool { return len(run(rest)) >= 20 }},
	{"sk-ant-", "anthropic-api-key", "an Anthropic API key", func(rest []byte) bool {
		return !bytes.HasPrefix(rest, []byte("admin01-")) && mixed(run(rest), 20)
	}},
	{"sk-or-v1-", "openrouter-api-key", "an OpenRouter API key", func(rest []byte) bool { return hex(run(rest), 64) }},
	{"sk-", "openai-api-key", "an OpenAI API key", func(rest []byte) bool {
		return !bytes.HasPrefix(rest, []byte("ant-")) && !bytes.HasPrefix(rest, []byte("or-v1-")) && (mixed(run(rest), 20) || hex(run(rest), 32))
	}},
	{"AIza", "gcp-api-key", "a Google API key", func(rest []byte) bool { return len(run(rest)) >= 35 }},
	{"ya29.", "gcp-oauth-access-token", "a Google OAuth access token", func(rest []byte) bool { return len(run(rest)) >= 20 }},
	{"GOCSPX-", "gcp-oauth-client-secret", "a Google OAuth client secret", func(rest []byte) bool { return len(run(rest)) >= 24 }},
	{"AKIA", "aws-access-token", "an AWS access key id", awsKeyID},
	{"ASIA", "aws-access-token", "an AWS temporary access key id", awsKeyID},
	// Bedrock API keys are base64 of "BedrockAPIKey-…" (long-lived) or of
	// a presigned bedrock.amazonaws.com URL (short-lived).
	{"ABSK", "aws-amazon-bedrock-api-key-long-lived", "an Amazon Bedrock API key", func(rest []byte) bool {
		return bytes.HasPrefix(rest, []byte("QmVkcm9ja0FQSUtleS")) && len(run(rest)) >= 24
	}},
	{"bedrock-api-key-", "aws-amazon-bedrock-api-key-short-lived", "an Amazon Bedrock API key", func(rest []byte) bool {
		return bytes.HasPrefix(rest, []byte("YmVkcm9jay5hbWF6b25hd3MuY29t"))
	}},
	{"ghp_", "github-pat", "a GitHub token", func(rest []byte) bool { return alnum(run(rest), 36) }},
	{"github_pat_", "github-fine-grained-pat", "a GitHub fine-grained token", func(rest []byte) bool { return len(run(rest)) >= 40 }},
	{"xoxb-", "slack-bot-token", "a Slack bot token", slackToken},
	{"xoxp-", "slack-user-token", "a Slack user token", slackToken},
	{"gsk_", "groq-api-key", "a Groq API key", func(rest []byte) bool { return mixed(run(rest), 40) }},
	{"hf_", "huggingface-access-token", "a Hugging Face token", func(rest []byte) bool { return letters(run(rest), 30) }},
	{"xai-", "xai-api-key", "an xAI API key", func(rest []byte) bool { return mixed(run(rest), 40) }},
	{"pplx-", "perplexity-api-key", "a Perplexity API key", func(rest []byte) bool { return alnum(run(rest), 32) }},
	{"r8_", "replicate-api-token", "a Replicate API token", func(rest []byte) bool { return alnum(run(rest), 30) }},
	{"fw_", "fireworks-api-key", "a Fireworks API key", func(rest []byte) bool { return alnum(run(rest), 20) }},
	{"nvapi-", "nvidia-api-key", "an NVIDIA API key", func(rest []byte) bool { return len(run(rest)) >= 40 }},
	{"csk-", "cerebras-api-key", "a Cerebras API key", func(rest []byte) bool { return alnum(run(rest), 40) }},
	{"lsv2_", "langsmith-api-key", "a LangSmith API key", func(rest []byte) bool { return len(run(rest)) >= 40 }},
	{"tvly-", "tavily-api-key", "a Tavily API key", func(rest []byte) bool { return alnum(run(rest), 24) }},
	{"sk_live_", "stripe-access-token", "a Stripe secret key", stripeKey},
	{"rk_live_", "stripe-access-token", "a Stripe restricted key", stripeKey},
	{"sk_prod_", "stripe-access-token", "a Stripe secret key", stripeKey},
	{"rk_prod_", "stripe-access-token", "a Stripe restricted key", stripeKey},
	{"eyJ", "jwt", "a JSON Web Token", isJWT},
}

// stripeKey is 10 or more letters and digits, as gitleaks' rule has it.
func stripeKey(rest []byte) bool {
	n := 0
	for n < len(rest) && (rest[n] >= '0' && rest[n] <= '9' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z') {
		n++
	}
	return n >= 10
}

// letters reports whether run is at least n letters of both cases.
func letters(run []byte, n int) bool {
	if len(run) < n {
		return false
	}
	var upper, lower bool
	for _, c := range run {
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		default:
			return false
		}
	}
	return upper && lower
}

// awsKeyID is the 16 upper-case letters and digits after AKIA or ASIA,
// and nothing more.
func awsKeyID(rest []byte) bool {
	r := run(rest)
	if len(r) != 16 {
		return false
	}
	digit := false
	for _, c := range r {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c < 'A' || c > 'Z':
			return false
		}
	}
	return digit
}

// slackToken is digits, a dash, digits, then a dash and the secret; or,
// as gitleaks' rule has it, two runs of 10 to 13 digits and the rest.
func slackToken(rest []byte) bool {
	parts := bytes.SplitN(run(rest), []byte("-"), 3)
	if len(parts) >= 2 && len(parts[0]) >= 10 && len(parts[0]) <= 13 && allDigits(parts[0]) && allDigits(leadingDigits(parts[1])) && len(leadingDigits(parts[1])) >= 10 {
		return true
	}
	return len(parts) == 3 && len(parts[0]) >= 6 && len(parts[1]) >= 6 && allDigits(parts[0]) && allDigits(parts[1]) && len(parts[2]) >= 16
}

// leadingDigits is the digits b starts with.
func leadingDigits(b []byte) []byte {
	for i, c := range b {
		if c < '0' || c > '9' {
			return b[:i]
		}
	}
	return b
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// hex reports whether run is exactly n lower-case hex digits.
func hex(run []byte, n int) bool {
	if len(run) != n {
		return false
	}
	for _, c := range run {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// alnum reports whether run is at least n letters and digits with both.
func alnum(run []byte, n int) bool {
	if len(run) < n {
		return false
	}
	var letter, digit bool
	for _, c := range run {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		default:
			return false
		}
	}
	return letter && digit
}

// startsToken reports whether a token may start at data[at]: after a byte
// that cannot be part of one, a dot, or an escape that stands for such a
// byte — a JSON escape (\n, \t, \", \u0022) or a URL-encoded byte (%22).
// A token's own bytes never start one: a signature holding "sk-" is not a
// key.
func startsToken(data []byte, at int) bool {
	if at == 0 {
		return true
	}
	prev := data[at-1]
	switch {
	case !tokenByte(prev) && prev != '.':
		return true
	case prev == '.':
		return true
	case at >= 2 && data[at-2] == '\\' && bytes.IndexByte([]byte("ntrbf"), prev) >= 0:
		return true
	case at >= 3 && data[at-3] == '%' && isHex(data[at-2]) && isHex(prev):
		return true
	case at >= 6 && data[at-6] == '\\' && data[at-5] == 'u' && isHex(data[at-4]) && isHex(data[at-3]) && isHex(data[at-2]) && isHex(prev):
		return true
	}
	return false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

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
	if len(payload) < 13 || len(payload) == len(rest) || rest[len(payload)] != '.' {
		return false
	}
	return len(run(rest[len(payload)+1:])) >= 16 // a real signature: 43 characters for HS256
}

// Scan looks for a credential in data and returns the first one found, or
// nil. field names data in the returned Leak.
func Scan(field string, data []byte) *Leak {
	return scan(field, data, 0, 0, true)
}

// scan searches data for tokens that start at or after index from; base is
// the offset of data[0] in the whole value. Each shape is found by one byte
// of its prefix that is rare in prose and JSON (its anchor), a few passes of
// bytes.IndexByte over data in all, and the earliest token wins: at one
// offset, the shape that comes first in shapes.
//
// A token that runs to the end of data is judged only when final: the
// Scanner may not have all of it yet, and a longer token may turn out a
// placeholder.
func scan(field string, data []byte, from int, base int64, final bool) *Leak {
	best, bestShape := -1, 0
	for _, a := range anchors {
		for i := from + a.least; i < len(data); {
			j := bytes.IndexByte(data[i:], a.c)
			if j < 0 {
				break
			}
			at := i + j
			if best >= 0 && at-a.most > best {
				break // every token this anchor could still find starts later
			}
			for _, u := range a.uses {
				start := at - u.offset
				if start < from || data[start] != u.first || best >= 0 && (start > best || start == best && u.shape > bestShape) {
					continue
				}
				if matchAt(shapes[u.shape], data, start, final) {
					best, bestShape = start, u.shape
				}
			}
			i = at + 1
		}
	}
	if best < 0 {
		return nil
	}
	s := shapes[bestShape]
	return &Leak{Field: field, Rule: s.rule, Kind: s.kind, Offset: base + int64(best), Length: tokenEnd(data, best+len(s.prefix)) - best, Prefix: s.prefix}
}

// matchAt reports whether a token of shape s starts at data[at] and is
// not a placeholder.
func matchAt(s shape, data []byte, at int, final bool) bool {
	if !bytes.HasPrefix(data[at:], []byte(s.prefix)) || !startsToken(data, at) || !s.check(data[at+len(s.prefix):]) {
		return false
	}
	end := at + len(s.prefix)
	for end < len(data) && runByte(data[end]) {
		end++
	}
	if end == len(data) && !final {
		return false
	}
	return !Placeholder(string(data[at:end]))
}

// An anchor is a byte that the prefixes of some shapes hold; scan looks
// for it and tries those shapes where their prefixes would start.
type anchor struct {
	c           byte
	least, most int // the least and the greatest offset of c in the prefixes
	uses        []anchorUse
}

type anchorUse struct {
	shape  int  // index in shapes
	offset int  // of c in the shape's prefix
	first  byte // the prefix's first byte, the cheap test before the rest
}

// anchorBytes are the anchors: each shape's prefix is found by the first
// of them in it. They are bytes that are rare in the text and JSON a body
// is mostly made of (a lower-case letter would stop scan at every other
// word), and few, since each is a pass over the data.
const anchorBytes = "-I9_JK"

var anchors = func() []anchor {
	as := make([]anchor, len(anchorBytes))
	for k := range as {
		as[k] = anchor{c: anchorBytes[k], least: -1}
	}
	for i, s := range shapes {
		k := strings.IndexAny(s.prefix, anchorBytes)
		if k < 0 {
			panic("redact: the prefix " + s.prefix + " holds no anchor byte")
		}
		a := &as[strings.IndexByte(anchorBytes, s.prefix[k])]
		a.uses = append(a.uses, anchorUse{shape: i, offset: k, first: s.prefix[0]})
		if a.least < 0 || k < a.least {
			a.least = k
		}
		a.most = max(a.most, k)
	}
	return slices.DeleteFunc(as, func(a anchor) bool { return len(a.uses) == 0 })
}()

// ScanHeader scans every value of h; fields are named prefix.Name.
func ScanHeader(prefix string, h http.Header) *Leak {
	// Most headers hold none: look before sorting the names, which only
	// says which leak comes first.
	if !anyLeak(h) {
		return nil
	}
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

func anyLeak(h http.Header) bool {
	for k, vs := range h {
		for _, v := range vs {
			if Scan(k, []byte(v)) != nil {
				return true
			}
		}
	}
	return false
}

// Scanner scans a value that arrives in pieces, such as a streamed body,
// without holding it. A token can only start after a byte that is not part
// of a token, so between writes it keeps just the trailing run of token
// bytes (up to maxToken) and the byte before it.
type Scanner struct {
	field string
	buf   []byte // the tail and what of the next piece continues its run, reused from piece to piece
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
	if len(s.tail) == 0 {
		s.scanFrom(p, 0, s.seen)
		return len(p), nil
	}
	// Only a token that starts in the tail, or in p's first run of token
	// bytes, needs the tail: it lies in the tail, that run and the byte
	// that ends the run. Scan that junction, then p past it, rather than
	// copy all of p after the tail.
	lead := 0
	for lead < len(p) && runByte(p[lead]) {
		lead++
	}
	if lead == len(p) {
		// p is all one run with the tail: keep scanning them as one.
		s.buf = append(append(s.buf[:0], s.tail...), p...)
		s.scanFrom(s.buf, s.from, s.seen)
		return len(p), nil
	}
	s.buf = append(append(s.buf[:0], s.tail...), p[:lead+1]...)
	if s.leak = scan(s.field, s.buf, s.from, s.seen, false); s.leak != nil {
		s.tail = nil
		return len(p), nil
	}
	// Every byte before p[lead+1] is a token byte or p[lead], which is
	// not: what startsToken looks back at from further on is in p.
	s.scanFrom(p, lead+1, s.seen+int64(len(s.tail)))
	return len(p), nil
}

// scanFrom scans buf, whose first byte is at offset base in the value, for
// tokens that start at from or later, and keeps its trailing run as the
// tail.
func (s *Scanner) scanFrom(buf []byte, from int, base int64) {
	if s.leak = scan(s.field, buf, from, base, false); s.leak != nil {
		s.tail = nil
		return
	}
	i := len(buf)
	for i > 0 && runByte(buf[i-1]) {
		i--
	}
	keep := 0
	switch {
	case len(buf)-i > maxToken: // longer than any token: nothing can start in it
		keep, s.from = len(buf)-1, 1
	case i > 0:
		keep, s.from = i-1, 1
	default:
		s.from = from
	}
	s.seen = base + int64(keep)
	s.tail = append(s.tail[:0], buf[keep:]...) // its own array: buf is p or s.buf
}

// runByte reports whether c can continue a run a token is found in: a
// token byte, or the dot between a JSON Web Token's parts.
func runByte(c byte) bool { return tokenByte(c) || c == '.' }

// Pending is how many of the newest bytes written the Scanner has not
// judged yet: a token may still be growing in them, so they must not go
// anywhere a credential may not before more is written or the value ends.
// It is at most maxToken and the byte before the run.
func (s *Scanner) Pending() int { return len(s.tail) }

// Leak returns the first credential found so far, or nil.
func (s *Scanner) Leak() *Leak { return s.leak }

// End judges the bytes still pending as the value's end and returns the
// first credential found, or nil. Nothing may be written after it.
func (s *Scanner) End() *Leak {
	if s.leak == nil && len(s.tail) > 0 {
		s.leak = scan(s.field, s.tail, s.from, s.seen, true)
		s.tail = nil
	}
	return s.leak
}
