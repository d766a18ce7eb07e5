package rawjson

import "testing"

// FuzzWordTests holds the eight-bytes-at-once tests to byte by byte ones.
func FuzzWordTests(f *testing.F) {
	for _, w := range []uint64{0, 0x2222222222222222, 0x5c41414141414141, 0x4141414141414122, 0x1f41414141414141, 0x80ff7f2021414141, 0x4142434445464748} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w uint64) {
		plain, noQuote := true, true
		for k := range 8 {
			c := byte(w >> (8 * k))
			if c == '"' || c == '\\' {
				plain, noQuote = false, false
			}
			if c < 0x20 {
				plain = false
			}
		}
		if got := plainRun(w); got != plain {
			t.Fatalf("plainRun(%#016x) = %v, want %v", w, got, plain)
		}
		if got := noQuoteOrEscape(w); got != noQuote {
			t.Fatalf("noQuoteOrEscape(%#016x) = %v, want %v", w, got, noQuote)
		}
	})
}
