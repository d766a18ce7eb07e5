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

	// hold lets released lines wait up to holdFor while other calls are
	// still running, so that under load lines go out a batch to a write
	// instead of a write each (a write is a system call, which costs about
	// as much as the rest of a replayed call's own work). A call that ends
	// with none running writes at once. Set when the lines go to a log.
	hold    bool
	pending bool // a timer will write what is held
}

// holdFor bounds how long a released line waits for others, and holdMost
// how many lines wait.
const (
	holdFor  = time.Millisecond
	holdMost = 64
)

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

// recorded notes that c is in the cassette, at index idx for now; final,
// when set, is told c's place in the file Close leaves once it is known.
func (o *lineOrder) recorded(c *call, idx int, final *placement) {
	o.mu.Lock()
	c.index, c.appended, c.final = idx, true, final
	o.mu.Unlock()
}

// done releases c's line once the lines of the calls before it are, and
// with it those of the calls after it that were waiting for it.
func (o *lineOrder) done(c *call, verb string, d time.Duration) {
	o.mu.Lock()
	o.ready(c, verb, d)
	o.writeOut()
}

// doneLater is done that leaves the lines it releases for the next write:
// the lint queue's, once its batch is over (writeReleased), so a batch's
// lines go out in one write rather than one write a call.
func (o *lineOrder) doneLater(c *call, verb string, d time.Duration) {
	o.mu.Lock()
	o.ready(c, verb, d)
	o.mu.Unlock()
}

// writeHeld writes the lines held, whatever is running.
func (o *lineOrder) writeHeld() {
	o.mu.Lock()
	o.pending = false
	o.write(true)
}

// writeReleased writes the lines released and not yet written.
func (o *lineOrder) writeReleased() {
	o.mu.Lock()
	o.writeOut()
}

// ready marks c's line ready and releases the lines it let go. The caller
// holds o.mu.
func (o *lineOrder) ready(c *call, verb string, d time.Duration) {
	c.line = line{ready: true, verb: verb, dur: d}
	if o.flushed {
		o.out = append(o.out, c)
	} else {
		n := 0
		for n < len(o.waiting) && o.waiting[n].line.ready {
			o.release(o.waiting[n])
			n++
		}
		clear(o.waiting[:n])
		o.waiting = o.waiting[n:]
	}
}

// flush releases the lines of every call that has ended, in order, and lets
// later ones go out at once when they end: Close does this once the
// cassette is closed, when no call can take a place in it any more. A call
// in the cassette whose line is still to come gets its place now.
func (o *lineOrder) flush() {
	o.mu.Lock()
	o.flushed = true
	for _, c := range o.waiting {
		switch {
		case c.line.ready:
			o.release(c)
		case c.appended:
			o.place(c)
		}
	}
	o.waiting = nil
	o.writeOut()
}

// release moves c's line to out, once every call before it is released,
// with its place in the file Close leaves. The caller holds o.mu.
func (o *lineOrder) release(c *call) {
	switch {
	case c.appended:
		o.place(c)
	case c.replayOf != nil && c.replayOf.known:
		// It replays a call of this session, whose line came first: its
		// place is known. (One that started after it, and answered it
		// first, keeps the place it was written at.)
		c.index = c.replayOf.index
	}
	o.out = append(o.out, c)
}

// place gives a call in the cassette its place in the file Close leaves:
// after the file's earlier interactions and this session's calls that
// started before it. The caller holds o.mu.
func (o *lineOrder) place(c *call) {
	c.index = o.loaded + o.counted
	o.counted++
	if c.final != nil {
		*c.final = placement{index: c.index, known: true}
	}
}

// placement is where a call recorded in this session ends up in the file
// Close leaves, once known: a replay of it in auto mode names that place.
// lineOrder guards it. It is kept apart from the call so that a replayable
// interaction does not keep its whole call.
type placement struct {
	index int
	known bool
}

// writeOut writes the released lines, unless another goroutine is writing
// (it writes these too before it stops), or they are held (see hold). The
// caller holds o.mu, which writeOut lets go.
func (o *lineOrder) writeOut() { o.write(false) }

// write is writeOut that holds no line when force is set.
func (o *lineOrder) write(force bool) {
	if o.writing || len(o.out) == 0 {
		o.mu.Unlock()
		return
	}
	if !force && o.hold && !o.flushed && len(o.waiting) > 0 && len(o.out) < holdMost {
		if !o.pending {
			o.pending = true
			time.AfterFunc(holdFor, o.writeHeld)
		}
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
