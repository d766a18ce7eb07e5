package rawjson

import "testing"

// FuzzNoControlWord holds the eight-bytes-at-once test to the byte by byte
// one.
func FuzzNoControlWord(f *testing.F) {
	for _, w := range []uint64{0, 0x2020202020202020, 0x1f41414141414141, 0x414141414141411f, 0x80ff7f2021414141, 0x4142434445464748} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w uint64) {
		want := true
		for k := range 8 {
			if byte(w>>(8*k)) < 0x20 {
				want = false
			}
		}
		if got := noControlWord(w); got != want {
			t.Fatalf("noControlWord(%#016x) = %v, want %v", w, got, want)
		}
	})
}
