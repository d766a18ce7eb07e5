package proxy

import (
	"sync"
	"testing"
)

// TestInflightIdle: idle is closed at once with no call in flight, and
// otherwise once the count next reaches zero, counting calls that start
// while someone waits (a MITM connection still served during Close).
func TestInflightIdle(t *testing.T) {
	closed := func(c <-chan struct{}) bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	}
	var f inflight
	if !closed(f.idle()) {
		t.Fatal("idle with no call in flight: not closed")
	}
	f.add()
	idle := f.idle()
	f.add() // starts while Close waits
	f.done()
	if closed(idle) {
		t.Fatal("idle closed with a call still in flight")
	}
	f.done()
	if !closed(idle) {
		t.Fatal("idle not closed once the last call ended")
	}

	// Calls starting and ending while others wait: no data race (go test
	// -race), and every waiter released.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range 100 {
				f.add()
				f.done()
			}
		}()
		go func() {
			defer wg.Done()
			for range 100 {
				<-f.idle()
			}
		}()
	}
	wg.Wait()
}
