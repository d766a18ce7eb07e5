package proxy

import "sync"

// inflight counts the calls between RoundTrip and their log line. It is a
// sync.WaitGroup that may gain calls while Close waits: a MITM connection
// goproxy still serves can start one then, and a WaitGroup forbids an Add
// from zero that is not ordered before Wait (the race detector says so).
type inflight struct {
	mu    sync.Mutex
	n     int
	idles []chan struct{} // closed when n next reaches zero
}

func (f *inflight) add() {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
}

func (f *inflight) done() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n--; f.n == 0 {
		for _, c := range f.idles {
			close(c)
		}
		f.idles = nil
	}
}

// idle returns a channel that is closed once no call is in flight.
func (f *inflight) idle() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := make(chan struct{})
	if f.n == 0 {
		close(c)
	} else {
		f.idles = append(f.idles, c)
	}
	return c
}
