package cassette

import "testing"

// FuzzASCIIPrintable holds the eight-bytes-at-once test to the byte by
// byte one.
func FuzzASCIIPrintable(f *testing.F) {
	for _, w := range []uint64{0, 0x2020202020202020, 0x7e7e7e7e7e7e7e7e, 0x7f41414141414141, 0x4141414141411f41, 0x80414141414141ff, 0x4142434445464748} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w uint64) {
		want := true
		for k := range 8 {
			if c := byte(w >> (8 * k)); c < 0x20 || c >= 0x7f {
				want = false
			}
		}
		if got := asciiPrintable(w); got != want {
			t.Fatalf("asciiPrintable(%#016x) = %v, want %v", w, got, want)
		}
	})
}
