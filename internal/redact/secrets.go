package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"math/bits"
	"strings"

	"github.com/llmtck/llmtck/internal/inflate"
)

// maxGunzip bounds what a gzip-encoded body is decompressed to for
// scanning: request bodies are small, and a bomb must not cost memory.
const maxGunzip = 64 << 20

// ScanBody scans a whole body, and, when it is gzip-compressed, what it
// decompresses to (a client that gzips its requests still must not leak
// its key into a cassette). It also finds AWS secret access keys, which
// have no prefix, by the name they are given.
func ScanBody(field string, data []byte) *Leak {
	if l := ScanAll(field, data); l != nil {
		return l
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		plain, err := inflate.Gzip(data, maxGunzip)
		if err != nil {
			return nil // not gzip after all, or a bomb: the provider refuses it too
		}
		if l := ScanAll(field+" (gunzipped)", plain); l != nil {
			return l
		}
	}
	return nil
}

// ScanAll is every layer of the scanner on a whole value: Scan's shapes,
// then the full rule set (gitleaks' rules, private keys, Google
// service-account keys, values under credential-named JSON keys and AWS
// secret access keys), on data as it is and, when it holds percent or JSON
// escapes, as they decode. It returns the earliest credential, or nil.
func ScanAll(field string, data []byte) *Leak {
	l := Scan(field, data)
	if r := ScanNamed(field, data); r != nil && (l == nil || r.Offset < l.Offset) {
		l = r
	}
	return l
}

// awsSecretNames are lower-case names an AWS secret access key is given.
var awsSecretNames = [][]byte{[]byte("secret_access_key"), []byte("secretaccesskey"), []byte("aws_secret_key"), []byte("secret-access-key")}

// ScanNamed is what ScanAll adds to Scan, for a value a Scanner has
// scanned already: the full rule set, on data and on its decoded view.
func ScanNamed(field string, data []byte) *Leak {
	l := scanFull(field, data)
	if view, at := decodeView(data); view != nil {
		if v := scanPlain(field, view); v != nil && (l == nil || int64(at[v.Offset]) < l.Offset) {
			start, end := at[v.Offset], at[int(v.Offset)+v.Length]
			v.Offset, v.Length, v.Prefix = int64(start), end-start, ""
			l = v
		}
	}
	return l
}

// scanPlain is ScanAll without the decoded view.
func scanPlain(field string, data []byte) *Leak {
	l := Scan(field, data)
	if r := scanFull(field, data); r != nil && (l == nil || r.Offset < l.Offset) {
		l = r
	}
	return l
}

// scanFull is the full rule set on data as it is: the earliest finding.
func scanFull(field string, data []byte) *Leak {
	var best *Leak
	consider := func(rule, kind string, start, end int) {
		if best == nil || int64(start) < best.Offset {
			best = &Leak{Field: field, Rule: rule, Kind: kind, Offset: int64(start), Length: end - start}
		}
	}
	fullRules().find(data, func(f finding) bool {
		consider(f.rule, kindOf(f.rule), f.start, f.end)
		return true
	})
	if start, end, ok := credentialField(data); ok {
		consider("credential-field", "a credential under a credential-named JSON key", start, end)
	}
	if l := awsSecretKey(field, data); l != nil {
		consider(l.Rule, l.Kind, int(l.Offset), int(l.Offset)+l.Length)
	}
	if best != nil && best.Rule == "private-key" && bytes.Contains(data, []byte("service_account")) {
		best.Rule, best.Kind = "gcp-service-account", "a Google service-account key"
	}
	return best
}

// kindOf says what a rule finds, for messages.
func kindOf(rule string) string {
	switch rule {
	case "private-key":
		return "a private key"
	case "generic-api-key":
		return "an API key"
	}
	for _, s := range shapes {
		if s.rule == rule {
			return s.kind
		}
	}
	return "a credential"
}

// awsSecretKey finds AWS secret access keys, 40 characters of base64 after
// aws_secret_access_key, SecretAccessKey or the like.
func awsSecretKey(field string, data []byte) *Leak {
	if !hasSecretWord(data) {
		return nil // every name holds "secret": most bodies are done here
	}
	lower := lowerASCII(data, nil) // same length as data, whatever its bytes
	for _, name := range awsSecretNames {
		for i := 0; ; {
			j := bytes.Index(lower[i:], name)
			if j < 0 {
				break
			}
			at := i + j + len(name)
			// Skip what joins a name to its value: quotes, colon, equals,
			// spaces and JSON escapes.
			k := at
			for k < len(data) && k-at < 8 && strings.IndexByte("\"'\\:= \t", data[k]) >= 0 {
				k++
			}
			v := k
			for v < len(data) && (tokenByte(data[v]) || data[v] == '/' || data[v] == '+') {
				v++
			}
			if v-k == 40 && mixed(data[k:v], 40) && !Placeholder(string(data[k:v])) {
				return &Leak{Field: field, Rule: "aws-secret-access-key", Kind: "an AWS secret access key", Offset: int64(k), Length: 40}
			}
			i = at
		}
	}
	return nil
}

// Text returns s with every credential ScanAll finds replaced by its first
// characters and "…REDACTED", for log lines and error messages.
func Text(s string) string {
	out, n := replaceTokens([]byte(s), maskToken)
	if n == 0 {
		return s
	}
	return string(out)
}

// TextBytes is Text for bytes: b itself when it holds no credential.
func TextBytes(b []byte) []byte {
	out, _ := replaceTokens(b, maskToken)
	return out
}

func maskToken(_ []byte, l *Leak) string { return l.Prefix + "…REDACTED" }

// Placeholder reports whether a credential value is a stand-in a test
// suite, a document or a scrubber put there, not a live key: the redaction
// mask, <NAME> and {{NAME}} templates, runs of X or *, keys that say they
// are not real (AWS's documented AKIAIOSFODNN7EXAMPLE, AKIATEST…, the
// test-, fake- and dummy- keys of SDK fixtures), and a word with padding
// (sk-abc000000…, AKIAABCDEFGHIJKLMNOP, a unit repeated).
func Placeholder(v string) bool {
	v = strings.TrimSpace(v)
	if after, ok := strings.CutPrefix(v, "Bearer "); ok {
		v = strings.TrimSpace(after)
	}
	l := strings.ToLower(v)
	switch {
	case v == "", v == Mask, strings.Contains(l, "redacted"), strings.Contains(l, "filtered"), strings.Contains(l, "placeholder"):
		return true
	case strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">"), strings.HasPrefix(v, "{{") && strings.HasSuffix(v, "}}"), strings.HasPrefix(v, "${"):
		return true
	case strings.Trim(v, "xX*-_.") == "" || strings.Contains(l, "xxxx") || strings.Contains(v, "****"):
		return true
	}
	for _, w := range placeholderWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(v, "ABSK"); ok { // base64 of "BedrockAPIKey-…"
		if b, err := base64.StdEncoding.DecodeString(rest); err == nil && Placeholder(string(b[min(len(b), 14):])) {
			return true
		}
	}
	return padded(withoutPrefix(v))
}

// placeholderWords say a key is not a real one.
var placeholderWords = []string{"test", "fake", "dummy", "example", "mock", "sample", "your-", "your_", "yourkey", "changeme", "notreal", "not-a-real", "invalid", "bogus", "lorem"}

// withoutPrefix is v without the prefix of a known key shape.
func withoutPrefix(v string) string {
	for _, s := range shapes {
		if after, ok := strings.CutPrefix(v, s.prefix); ok {
			return strings.TrimPrefix(strings.TrimPrefix(after, "proj-"), "api03-")
		}
	}
	return v
}

// padded reports whether what is left of v, once runs of one character
// and runs of consecutive ones (0123, abcd) are taken out, is too short to
// be a key, or v repeats a unit of up to eight characters.
func padded(v string) bool {
	if len(v) < 16 { // too short to be a key's random part: judged elsewhere
		return len(v) > 0 && strings.Count(v, v[:1]) == len(v)
	}
	for p := 1; p <= 8 && 2*p <= len(v); p++ {
		if v[p:] == v[:len(v)-p] {
			return true
		}
	}
	left := 0
	for i := 0; i < len(v); {
		j := i + 1
		switch {
		case j < len(v) && v[j] == v[i]:
			for j < len(v) && v[j] == v[i] {
				j++
			}
		case j < len(v) && v[j] == v[i]+1:
			for j < len(v) && v[j] == v[j-1]+1 {
				j++
			}
		}
		if j-i < 4 {
			left += j - i
		}
		i = j
	}
	return left < 12
}

// hasSecretWord reports whether "secret", in any case, occurs in data,
// without lower-casing all of it. It looks for a c or C eight bytes at a
// time, and for the word two bytes before each: c is the word's rarest
// letter in English and in base64, so it stops about half as often as a
// look at each s would. English still has a c every few words, too often
// to pay a search call (bytes.IndexByte) for each; the eight-byte test finds
// them in the loop itself.
func hasSecretWord(data []byte) bool {
	i := 0
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		// A byte is c or C when, with its 0x20 bit set, it is c; zeroBits
		// marks each such byte (and may mark a byte after one: secretAt
		// decides).
		for m := zeroBits((w | 0x20*ones) ^ 'c'*ones); m != 0; m &= m - 1 {
			if k := i + bits.TrailingZeros64(m)/8 - 2; k >= 0 && secretAt(data, k) {
				return true
			}
		}
	}
	for ; i < len(data); i++ {
		if data[i]|0x20 == 'c' && i >= 2 && secretAt(data, i-2) {
			return true
		}
	}
	return false
}

// secretAt reports whether "secret", in any case, starts at data[k].
// Testing the e first rules most candidates out before EqualFold.
func secretAt(data []byte, k int) bool {
	return k+6 <= len(data) && data[k+1]|0x20 == 'e' && bytes.EqualFold(data[k:k+6], []byte("secret"))
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zeroBits is not zero when a byte of w is zero: the high bit of each
// zero byte is set, and perhaps of a byte above one.
func zeroBits(w uint64) uint64 { return (w - ones) &^ w & highs }

// longestKey bounds the length of a credential the scanner recognises, so
// that one straddling where two bodies part is scanned whole.
const longestKey = 1024

// Resume is where a scan of body can start when prev, which body may
// repeat (the previous request of a growing conversation), was scanned
// already: where body stops repeating prev, less the longest credential, at
// the start of a JSON string. It is 0 when either is compressed (their
// bytes are not the text scanned).
func Resume(prev, body []byte) int {
	if len(prev) < 2 || len(body) < 2 || prev[0] == 0x1f || body[0] == 0x1f {
		return 0
	}
	n := 0
	const chunk = 4096
	for n+chunk <= len(prev) && n+chunk <= len(body) && bytes.Equal(prev[n:n+chunk], body[n:n+chunk]) {
		n += chunk
	}
	for n < len(prev) && n < len(body) && prev[n] == body[n] {
		n++
	}
	from := max(0, n-longestKey)
	// Start where a JSON string starts, so no token is read from its middle.
	if k := bytes.LastIndexByte(body[:from], '"'); k >= 0 {
		return k + 1
	}
	return 0
}
