package proxy

import (
	"os"
	"testing"
	"time"

	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/sse"
)

// clockEnds feeds body to an eventClock in pieces of n bytes and returns the
// event ends it saw.
func clockEnds(body []byte, n int) []int64 {
	c := newEventClock(time.Now())
	for i := 0; i < len(body); i += n {
		c.write(body[i:min(len(body), i+n)], time.Now())
	}
	c.finish(time.Now())
	return c.ends
}

func parseEnds(body []byte) []int64 {
	var ends []int64
	for _, ev := range sse.Parse(body) {
		ends = append(ends, int64(ev.End))
	}
	return ends
}

func equalEnds(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestEventClockSplitsLikeSSEParse(t *testing.T) {
	for _, body := range []string{
		"event: message_start\ndata: {}\n\nevent: ping\ndata: {}\n\n",
		"data: a\r\n\r\ndata: b\r\rdata: c\n\n",
		": OPENROUTER PROCESSING\n\ndata: {}\n\ndata: [DONE]\n\n",
		"event:\n\nevent: \n\nevent:x\n\nevent\n\ndata\n\n",
		"data: cut off mid-event",
		"data: x\n\n\n\n\ndata: y\n",
		"id: 1\n\nretry: 5\n\ndatabase: no\n\n",
	} {
		want := parseEnds([]byte(body))
		for n := 1; n <= len(body); n++ {
			if got := clockEnds([]byte(body), n); !equalEnds(got, want) {
				t.Fatalf("%q in pieces of %d: ends %v, sse.Parse %v", body, n, got, want)
			}
		}
	}
}

func TestEventClockTimesEachEvent(t *testing.T) {
	start := time.Unix(1000, 0)
	c := newEventClock(start)
	c.write([]byte("event: a\ndata: 1\n"), start.Add(10*time.Millisecond))
	c.write([]byte("\nevent: b\n"), start.Add(60*time.Millisecond))
	c.write([]byte("data: 2\n\n"), start.Add(110*time.Millisecond))
	c.finish(start.Add(200 * time.Millisecond))
	want := []time.Duration{60 * time.Millisecond, 110 * time.Millisecond}
	if len(c.offsets) != 2 || c.offsets[0] != want[0] || c.offsets[1] != want[1] {
		t.Fatalf("offsets %v, want %v", c.offsets, want)
	}
}

// FuzzEventClock checks the incremental split against sse.Parse on any body
// cut into any pieces. Seeded with every streamed body of the corpus (the
// raw recording files contain them verbatim or nearly).
func FuzzEventClock(f *testing.F) {
	for _, p := range corpus.Files(f) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(7))
	}
	f.Add([]byte("data: a\r\n\r\ndata: b\r\r"), uint8(1))
	f.Fuzz(func(t *testing.T, body []byte, n uint8) {
		if want, got := parseEnds(body), clockEnds(body, int(n)+1); !equalEnds(got, want) {
			t.Fatalf("pieces of %d: ends %v, sse.Parse %v", int(n)+1, got, want)
		}
	})
}
