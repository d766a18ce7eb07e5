package proxy

import (
	"sync"
	"time"
)

// lineOrder puts a cassette's log lines in the order of its calls' requests.
// Calls are appended to the cassette as they finish, and Close then puts the
// file in request order; a call's line waits for the calls that started
// before it, so its #N can be its place in the file Close leaves, which is
// the index `check` reports it under.
type lineOrder struct {
	mu      sync.Mutex
	next    uint64  // the seq of the next call to start
	waiting []*call // started, line not yet written, in seq order
	loaded  int     // interactions the file held before this session
	written int     // this session's interactions whose line is out
	flushed bool    // Close wrote what was waiting: lines go out at once

	// writing is taken before mu is let go, so lines released by two
	// calls one after the other are written in that order too, while new
	// calls start without waiting for the log's writer.
	writing sync.Mutex
}

// line is a call's log line, ready once its call has ended.
type line struct {
	ready bool
	verb  string
	dur   time.Duration
}

// start gives c its place in the request order.
func (o *lineOrder) start(c *call) {
	o.mu.Lock()
	o.next++
	c.seq = o.next
	if !o.flushed {
		o.waiting = append(o.waiting, c)
	}
	o.mu.Unlock()
}

// done writes c's line once the calls before it have written theirs, then
// those of the calls after it that were waiting for it.
func (o *lineOrder) done(c *call, verb string, d time.Duration) {
	o.mu.Lock()
	if o.flushed {
		o.mu.Unlock()
		c.r.writeLine(c, verb, d)
		return
	}
	c.line = line{ready: true, verb: verb, dur: d}
	n := 0
	for n < len(o.waiting) && o.waiting[n].line.ready {
		n++
	}
	o.release(n)
}

// flush writes the lines of every call that has ended, in order, and lets
// later ones go out at once: Close does this once the cassette is closed,
// so a call still in flight can no longer take a place before them.
func (o *lineOrder) flush() {
	o.mu.Lock()
	o.flushed = true
	kept := o.waiting[:0]
	for _, c := range o.waiting {
		if c.line.ready {
			kept = append(kept, c)
		}
	}
	o.waiting = kept
	o.release(len(kept))
}

// release writes the lines of the first n waiting calls; the caller holds
// o.mu, which release lets go.
func (o *lineOrder) release(n int) {
	if n == 0 {
		o.mu.Unlock()
		return
	}
	out := append([]*call(nil), o.waiting[:n]...)
	for _, c := range out {
		if c.appended {
			c.index = o.loaded + o.written
			o.written++
		}
	}
	clear(o.waiting[:n])
	o.waiting = o.waiting[n:]
	o.writing.Lock()
	o.mu.Unlock()
	defer o.writing.Unlock()
	for _, c := range out {
		c.r.writeLine(c, c.line.verb, c.line.dur)
	}
}
