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

// A bomb of 1 MiB that inflates to about 1 GiB is refused at a 256 MiB
// limit having allocated almost nothing: the count streams into nothing.
func TestBombCostsNoMemory(t *testing.T) {
	bomb := gz(t, strings.Repeat("\x00", 1<<20), 1<<10)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Gzip(bomb, 256<<20)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("bomb: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("refusing a %d KiB bomb allocated %d MiB", len(bomb)>>10, grew>>20)
	}
}
