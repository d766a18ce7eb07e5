package inflate

import (
	"bytes"
	"compress/gzip"
	"errors"
	"runtime"
	"strings"
	"testing"
)

func gz(t testing.TB, s string, n int) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	for range n {
		zw.Write([]byte(s))
	}
	zw.Close()
	return b.Bytes()
}

func TestGzip(t *testing.T) {
	out, err := Gzip(gz(t, "hello ", 3), 100)
	if err != nil || string(out) != "hello hello hello " {
		t.Fatalf("%q %v", out, err)
	}
	if _, err := Gzip(gz(t, "x", 101), 100); !errors.Is(err, ErrTooLarge) {
		t.Errorf("101 bytes under a limit of 100: %v", err)
	}
	if _, err := Gzip([]byte("not gzip"), 100); err == nil {
		t.Error("not gzip: no error")
	}
	whole := gz(t, "hello ", 1000)
	if _, err := Gzip(whole[:len(whole)/2], 1<<20); err == nil {
		t.Error("a truncated stream: no error")
	}
}

// A bomb of 64 KiB that inflates to 64 MiB is refused at a 32 MiB limit
// having allocated almost nothing: the count streams into nothing, where
// reading into a growing buffer would take the limit or more. (A larger
// bomb under the default limit gives the same verdict, only slowly under
// -race.)
func TestBombCostsNoMemory(t *testing.T) {
	bomb := gz(t, strings.Repeat("\x00", 1<<20), 1<<6)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Gzip(bomb, 32<<20)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("bomb: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("refusing a %d KiB bomb allocated %d MiB", len(bomb)>>10, grew>>20)
	}
}

// FuzzGzip: any input decompresses to at most the limit or fails, the same
// as a plain reader would where it succeeds.
func FuzzGzip(f *testing.F) {
	f.Add(gz(f, "hello ", 3), uint16(100))
	f.Add(gz(f, "x", 5000), uint16(4096))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0}, uint16(10))
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) {
		out, err := Gzip(data, int64(limit))
		if err != nil {
			return
		}
		if len(out) > int(limit) {
			t.Fatalf("%d bytes out under a limit of %d", len(out), limit)
		}
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("Gzip accepted what gzip refuses: %v", err)
		}
		var plain bytes.Buffer
		if _, err := plain.ReadFrom(zr); err != nil || !bytes.Equal(plain.Bytes(), out) {
			t.Fatalf("Gzip = %q, gzip = %q (%v)", out, plain.Bytes(), err)
		}
	})
}
