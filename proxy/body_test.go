package proxy

import (
	"testing"
	"unicode/utf8"
)

// FuzzBodyUTF8 checks that the running UTF-8 check, fed in pieces, agrees
// with utf8.Valid on the whole body.
func FuzzBodyUTF8(f *testing.F) {
	for _, s := range []string{"plain", "é☃😀", "\xff", "a\xe2\x98", "\xe2\x98\x83\xe2"} {
		f.Add([]byte(s), uint8(1))
	}
	f.Fuzz(func(t *testing.T, body []byte, n uint8) {
		b := newBodyBuffer("body", 0)
		step := int(n%8) + 1
		for i := 0; i < len(body); i += step {
			b.Write(body[i:min(len(body), i+step)])
		}
		if got, want := b.UTF8(), utf8.Valid(body); got != want {
			t.Fatalf("%q in pieces of %d: UTF8() = %v, utf8.Valid = %v", body, step, got, want)
		}
	})
}
