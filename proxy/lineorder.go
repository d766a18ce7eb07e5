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
	waiting []*call // started, line not yet released, in seq order
	loaded  int     // interactions the file held before this session
	counted int     // this session's interactions whose line is released
	flushed bool    // Close released what was waiting: lines go out at once

	// Released lines are written by one goroutine at a time, the one that
	// found no other writing; the others leave theirs to it and go on, so
	// neither a call's start nor its end waits for a slow log, and lines
	// released together go out in one write.
	out     []*call
	writing bool
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

// done releases c's line once the lines of the calls before it are, and
// with it those of the calls after it that were waiting for it.
func (o *lineOrder) done(c *call, verb string, d time.Duration) {
	o.mu.Lock()
	c.line = line{ready: true, verb: verb, dur: d}
	if o.flushed {
		o.out = append(o.out, c)
	} else {
		n := 0
		for n < len(o.waiting) && o.waiting[n].line.ready {
			n++
		}
		o.release(n)
	}
	o.writeOut()
}

// flush releases the lines of every call that has ended, in order, and lets
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
	o.writeOut()
}

// release moves the first n waiting calls to out, giving each recorded one
// its place in the file Close leaves. The caller holds o.mu.
func (o *lineOrder) release(n int) {
	for _, c := range o.waiting[:n] {
		if c.appended {
			c.index = o.loaded + o.counted
			o.counted++
		}
		o.out = append(o.out, c)
	}
	clear(o.waiting[:n])
	o.waiting = o.waiting[n:]
}

// writeOut writes the released lines, unless another goroutine is writing
// (it writes these too before it stops). The caller holds o.mu, which
// writeOut lets go.
func (o *lineOrder) writeOut() {
	if o.writing || len(o.out) == 0 {
		o.mu.Unlock()
		return
	}
	o.writing = true
	for len(o.out) > 0 {
		batch := o.out
		o.out = nil
		o.mu.Unlock()
		writeLines(batch)
		o.mu.Lock()
	}
	o.writing = false
	o.mu.Unlock()
}

// writeLines writes the lines of calls of one recorder in one write: the
// calls are over.
func writeLines(calls []*call) {
	r := calls[0].r
	defer func() {
		for range calls {
			r.inflight.done()
		}
	}()
	r.log.lines(calls)
}
