package redact

import (
	"bytes"
	"math/rand/v2"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/corpus"
)

// FuzzScan checks that the streaming Scanner, fed in pieces, finds exactly
// what Scan finds in the whole value, and that neither panics.
func FuzzScan(f *testing.F) {
	for _, p := range corpus.Files(f) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint16(len(data)/3))
	}
	for _, s := range []string{anthropicKey, openaiKey, googleKey, jwt, "x " + jwt + " y", "sk-" + openaiKey} {
		f.Add([]byte(s), uint16(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, data []byte, step uint16) {
		want := Scan("body", data)
		if want != nil && (want.Offset < 0 || want.Offset >= int64(len(data))) {
			t.Fatalf("offset %d outside %d bytes", want.Offset, len(data))
		}
		s := NewScanner("body")
		n := int(step%512) + 1
		for i := 0; i < len(data); i += n {
			s.Write(data[i:min(len(data), i+n)])
		}
		got := s.End()
		if (got == nil) != (want == nil) || got != nil && *got != *want {
			t.Fatalf("in pieces of %d: %v; whole: %v", n, got, want)
		}
	})
}

// FuzzURL checks that masking never touches anything but key values.
func FuzzURL(f *testing.F) {
	for _, s := range []string{
		"https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent?alt=sse&key=AIza",
		"https://x/?key=1&key=2#k", "/p?%zz=1&key", "?", "https://api.anthropic.com/v1/messages",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := Default().URL(raw)
		if !strings.Contains(raw, "?") && got != raw {
			t.Fatalf("URL(%q) = %q changed a URL without a query", raw, got)
		}
		if Default().URL(got) != got {
			t.Fatalf("URL is not idempotent on %q", raw)
		}
		if u, err := url.Parse(got); err == nil {
			for k, vs := range u.Query() {
				if strings.EqualFold(k, "key") {
					for _, v := range vs {
						if v != Mask && v != "" {
							t.Fatalf("URL(%q) = %q kept key %q", raw, got, v)
						}
					}
				}
			}
		}
	})
}

// scanOneShapeAtATime is scan as it was first written, one pass per shape:
// the reference the anchored passes must agree with.
func scanOneShapeAtATime(data []byte) (int, string) {
	best, kind := -1, ""
	for _, s := range shapes {
		p := []byte(s.prefix)
		for i := 0; i <= len(data)-len(p); {
			j := bytes.Index(data[i:], p)
			if j < 0 {
				break
			}
			at := i + j
			if best >= 0 && at >= best {
				break
			}
			if matchAt(s, data, at, true) {
				best, kind = at, s.kind
				break
			}
			i = at + 1
		}
	}
	return best, kind
}

// FuzzScanAnchorsAgree: scanning by anchor bytes finds the leak, at the
// offset, that scanning shape by shape finds.
func FuzzScanAnchorsAgree(f *testing.F) {
	f.Add([]byte(`{"k":"sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345","g":"ghp_0123456789abcdefABCDEF0123456789abcd"}`))
	f.Add([]byte(`xoxb-123 sk-or-v1-` + strings.Repeat("ab12", 16) + ` AKIAABCDEFGHIJKLMNOP`))
	f.Fuzz(func(t *testing.T, data []byte) {
		at, kind := scanOneShapeAtATime(data)
		l := Scan("f", data)
		switch {
		case at < 0 && l != nil:
			t.Fatalf("found %s at %d; one shape at a time finds nothing", l.Kind, l.Offset)
		case at >= 0 && (l == nil || l.Offset != int64(at) || l.Kind != kind):
			t.Fatalf("found %v; one shape at a time finds %s at %d", l, kind, at)
		}
	})
}

// FuzzHasSecretWord holds hasSecretWord, which reads eight bytes at a time,
// to a byte-by-byte look for the word in any case.
func FuzzHasSecretWord(f *testing.F) {
	for _, s := range []string{"secret", "xxSECRETxx", "aws_SeCrEt_access_key", "secre", "sssssssssecret", "s\x01ecret", "\x00\x01secret",
		"1234567secret", "12345678secre", "sec\x00ret", "ſecret", "\xf3ecret", "s" + "ecre" + "T",
		// Where the c that it stops at falls: in the first word's third
		// byte, across two words, in the tail after the last word, and a
		// c with no room for "se" before it.
		"secretxxxx", "xxxxxxsecret", "xxxxxxxsecretxx", "xxxxxxxsecret", "cxxxxxxxsecret"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want := false
		for k := 0; k+6 <= len(data); k++ {
			if strings.ToLower(string(data[k:k+6])) == "secret" && isASCII(data[k:k+6]) {
				want = true
			}
		}
		if got := hasSecretWord(data); got != want {
			t.Fatalf("hasSecretWord(%q) = %v, want %v", data, got, want)
		}
	})
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// FuzzFastWithinFull holds the fast path to the full rule set on what the
// fast path claims to catch: where one of gitleaks' rules that a fast
// shape stands for finds a secret starting with that shape's prefix, at a
// place a token can start, the fast path finds a token there too, whole
// and streamed (the recorder relies on it for bodies it does not keep).
// Neither layer panics on any input.
func FuzzFastWithinFull(f *testing.F) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, s := range credShapes {
		f.Add([]byte(s.inJSON(s.make(r))))
	}
	for _, p := range placeholders {
		f.Add([]byte(p))
	}
	// The fast path knows a long-lived Bedrock key by its decoded
	// "BedrockAPIKey-" start, narrower than gitleaks' any-base64 rule (its
	// '+' and '/' end a streamed run): it claims no more than that.
	narrower := map[string]bool{"aws-amazon-bedrock-api-key-long-lived": true}
	claimed := map[string][]shape{}
	for _, s := range shapes {
		if !narrower[s.rule] {
			claimed[s.rule] = append(claimed[s.rule], s)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ScanAll("f", data)
		ScanBody("f", data)
		Scrub(data)
		fullRules().find(data, func(fd finding) bool {
			for _, s := range claimed[fd.rule] {
				if !bytes.HasPrefix(data[fd.start:], []byte(s.prefix)) || !startsToken(data, fd.start) {
					continue
				}
				if l := Scan("f", data); l == nil || l.Offset > int64(fd.start) {
					t.Fatalf("rule %s finds %q at %d; the fast path finds %v", fd.rule, data[fd.start:fd.end], fd.start, l)
				}
				sc := NewScanner("f")
				for i := 0; i < len(data); i += 7 {
					sc.Write(data[i:min(len(data), i+7)])
				}
				if l := sc.End(); l == nil || l.Offset > int64(fd.start) {
					t.Fatalf("rule %s finds %q at %d; the streamed fast path finds %v", fd.rule, data[fd.start:fd.end], fd.start, l)
				}
			}
			return true
		})
	})
}
