package proxy

import (
	"fmt"
	"runtime/debug"
	"sync"
	"time"
)

// lintQueue runs a cassette's live linter off the calls' path, when no call
// waits for its verdict (nothing is refused: record, or no --check): each
// call's judgement on arrival, and the remembering of its answer with its
// log line at its end, as jobs in the order they were pushed, so every
// request is judged against the calls answered before it arrived, as
// judging it on arrival would.
//
// The jobs run in batches, gathered for a moment first: run one after
// another, a batch finds the linter's code and the history in the
// processor's caches, which a judgement between two calls' HTTP work finds
// evicted (BenchmarkEvalCallCold measures what that costs). A
// call's log line is written a moment after its end, with the others of its
// batch in one write (after).
type lintQueue struct {
	mu      sync.Mutex
	room    sync.Cond // signalled when a batch is taken
	jobs    []func()
	running bool // a goroutine is draining the queue
	// warn reports a job that panicked: the recorder goes on, as
	// net/http goes on after a handler's panic.
	warn func(string)
	// after, when set, runs once a batch's jobs have run: it writes the
	// log lines they released.
	after func()
}

// gather is how long the queue waits for a batch once a job arrives on an
// idle queue. A long one holds more calls' bodies for longer; a short one
// makes small batches.
var gather = time.Millisecond

// maxQueued bounds the jobs waiting, so a linter slower than the traffic
// slows the calls instead of holding ever more of them in memory. A
// variable so a test can make the calls wait.
var maxQueued = 4096

func newLintQueue(warn func(string), after func()) *lintQueue {
	q := &lintQueue{warn: warn, after: after}
	q.room.L = &q.mu
	return q
}

// push queues job, and starts a goroutine to drain the queue if none is.
func (q *lintQueue) push(job func()) {
	q.mu.Lock()
	for len(q.jobs) >= maxQueued {
		q.room.Wait()
	}
	q.jobs = append(q.jobs, job)
	start := !q.running
	q.running = true
	q.mu.Unlock()
	if start {
		go q.drain()
	}
}

// drain runs the queued jobs, batch by batch, until none is left.
func (q *lintQueue) drain() {
	time.Sleep(gather)
	var batch []func()
	for {
		q.mu.Lock()
		batch, q.jobs = q.jobs, batch[:0]
		if len(batch) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		q.room.Broadcast()
		q.mu.Unlock()
		for i, job := range batch {
			q.run(job)
			batch[i] = nil
		}
		if q.after != nil {
			q.run(q.after)
		}
	}
}

// run runs job; a panic, a bug in a check, is reported and the queue goes
// on with the next job.
func (q *lintQueue) run(job func()) {
	defer func() {
		if p := recover(); p != nil {
			q.warn(fmt.Sprintf("the live linter failed (a bug: please report it): %v\n%s", p, debug.Stack()))
		}
	}()
	job()
}
