package redact

import (
	"bytes"
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

// ScanAll is Scan and the credentials known by their name rather than a
// prefix: an AWS secret access key, 40 characters of base64 after
// aws_secret_access_key, SecretAccessKey or the like.
func ScanAll(field string, data []byte) *Leak {
	if l := Scan(field, data); l != nil {
		return l
	}
	return ScanNamed(field, data)
}

// awsSecretNames are lower-case names an AWS secret access key is given.
var awsSecretNames = [][]byte{[]byte("secret_access_key"), []byte("secretaccesskey"), []byte("aws_secret_key"), []byte("secret-access-key")}

// ScanNamed is what ScanAll adds to Scan: the credentials known by their
// name (an AWS secret access key), for a value a Scanner has scanned
// already.
func ScanNamed(field string, data []byte) *Leak {
	if !hasSecretWord(data) {
		return nil // every name holds "secret": most bodies are done here
	}
	lower := bytes.ToLower(data)
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
			if v-k == 40 && mixed(data[k:v], 40) && !bytes.Contains(data[k:v], []byte("EXAMPLEKEY")) {
				return &Leak{Field: field, Kind: "an AWS secret access key", Offset: int64(k), Prefix: string(data[k : k+4])}
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
// suite or a scrubber put there, not a live key: the redaction mask,
// <NAME> and {{NAME}} templates, runs of X or *, and the test-, fake- and
// dummy- keys of examples.
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
	for _, w := range []string{"test", "fake", "dummy", "example", "mock", "sample", "your-", "your_"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
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
