package lint

import (
	"slices"
	"sync"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/traffic"
)

// Linter judges the requests of one conversation (a cassette being
// recorded or replayed, a simulated scenario) as they arrive, each against
// the calls answered before it. Judge and Prepare may run concurrently
// with one another; Add and Forget may not run with anything.
//
// A request that extends an accepted one unchanged (same settings, its
// messages first: a growing conversation) is judged against that call and
// the ones after it only: what came before was judged when that call was,
// and the provider took it. A fresh request (a new conversation of user
// text that shares no block with the history: an eval harness's) is judged
// alone. Either costs work linear in the requests judged, not in the whole
// history. Any other request is judged against the whole history, as check
// judges a recording.
type Linter struct {
	checks  []*check.Check
	byID    map[string]*check.Check // checks by ID, for the provider's answer
	history []traffic.Exchange
	prints  []print // of history, in step
	// later holds, in step with history, the calls added with their
	// responses still to decode (AddDeferred); nil for the others.
	later []*deferred
	seen  seen // the history's blocks
	// blocks are the fingerprints of the history's blocks, by address: a
	// request that repeats the history through an traffic.Memo shares its
	// blocks, and is hashed in time linear in what it adds.
	blocks *thread.Prints
	// Ephemeral is content the harness was told to send once and never
	// persist; HIST-005 judges it.
	Ephemeral []string
	// Full judges every request against the whole history.
	Full bool
}

// New returns a Linter running checks (checks.All() for the whole
// catalogue: the caller names them, so that what links the linter does not
// link every check). Checks of the recording itself (check.Check.Recording)
// are left out: they judge what is written, not what the provider accepts.
func New(cs []*check.Check) *Linter {
	cs = slices.DeleteFunc(slices.Clone(cs), func(c *check.Check) bool { return c.Recording })
	byID := make(map[string]*check.Check, len(cs))
	for _, c := range cs {
		byID[c.ID] = c
	}
	return &Linter{checks: cs, byID: byID}
}

// AddEphemeral declares content the harness was told to send once and
// never persist, for HIST-005 to judge.
func (l *Linter) AddEphemeral(text string) { l.Ephemeral = append(l.Ephemeral, text) }

// Verdict is the judgement of one request.
type Verdict struct {
	// Findings are the findings about the request, in catalogue order.
	Findings []check.Finding
	// Rejection is the provider's answer to the request's first
	// error-level finding; nil when the provider would accept it.
	Rejection *Rejection
	// Shortened is true when the request was judged against part of the
	// history: it extends an accepted call unchanged, and the calls before
	// that one were left out; or it is fresh, and judged alone.
	Shortened bool
}

// Judge judges next, whose request is decoded and whose response has not
// come yet, against the history so far. next.Index is set to its place in
// the conversation. Judge does not add next to the history: Add does, once
// it is answered.
func (l *Linter) Judge(next traffic.Exchange) Verdict { return l.Prepare(next).Verdict() }

// Prepare takes what the judgement of next needs from the history (the
// calls it is judged against), so that a caller guarding the linter with a
// lock can release it before the judging itself: Verdict needs the linter
// no longer. Judge is Prepare(next).Verdict().
func (l *Linter) Prepare(next traffic.Exchange) *Pending {
	next.Index = len(l.history)
	from := 0
	if !l.Full {
		// A fresh request extends nothing (it shares no block): asking
		// first spares it the walk back through every call.
		if l.seen.fresh(&next, nil) {
			from = len(l.history)
		} else if i := l.extended(printOf(&next, l.lookup(), l.last())); i >= 0 {
			from = i
		}
	}
	// The calls before from stay zero values: the checks start at from
	// (Traffic.From), and a pooled buffer is all zeros (Verdict clears it).
	buf := trafficBuffers.Get().(*[]traffic.Exchange)
	exs := *buf
	if cap(exs) < len(l.history)+1 {
		exs = make([]traffic.Exchange, 0, len(l.history)+1+len(l.history)/4)
	}
	exs = append(append(exs[:from], l.history[from:]...), next)
	*buf = exs
	p := &Pending{buf: buf, from: from, next: next.Index, wire: next.Wire, shortened: from > 0,
		ephemeral: l.Ephemeral[:len(l.Ephemeral):len(l.Ephemeral)], checks: l.checks, byID: l.byID}
	for i := from; i < len(l.history); i++ {
		if l.later[i] != nil {
			// Their responses are decoded by Verdict, outside the
			// caller's lock; a copy, since Forget moves l.later's.
			p.later = slices.Clone(l.later[from:])
			break
		}
	}
	if !l.Full && l.blocks != nil && from < len(l.history) {
		// The judgement learns over the history's fingerprints, and what
		// it learns of next goes with it: next may still change. (A full
		// judgement hashes afresh, as check does: the tests' yardstick.)
		p.blocks = l.blocks.Over(true)
	}
	return p
}

// lookup is a view of the history's fingerprints that keeps nothing, for a
// request that is not the history's yet; nil when there are none.
func (l *Linter) lookup() *thread.Prints {
	if l.blocks == nil {
		return nil
	}
	return l.blocks.Over(false)
}

// Pending is a judgement Prepare has set up and Verdict carries out.
type Pending struct {
	buf       *[]traffic.Exchange // the traffic: the calls judged against, then next
	from      int                 // where they begin in buf
	next      int
	wire      traffic.Wire
	shortened bool
	ephemeral []string
	checks    []*check.Check
	byID      map[string]*check.Check
	blocks    *thread.Prints // nil: the judgement keeps its own
	later     []*deferred    // of the calls judged against, in step from from; nil when none is
	traffic   check.Traffic  // what Verdict judges: kept here, one allocation fewer
}

// Verdict judges the prepared request. Call it once.
func (p *Pending) Verdict() Verdict {
	exs := *p.buf
	defer func() {
		clear(exs[p.from:]) // drop the references; the buffer is all zeros again
		*p.buf = exs[:0]
		trafficBuffers.Put(p.buf)
		if p.blocks != nil {
			p.blocks.Release() // nothing reads the judgement's prints any more
		}
	}()
	for k, d := range p.later {
		if d != nil {
			exs[p.from+k] = d.decoded(exs[p.from+k])
		}
	}
	v := Verdict{Shortened: p.shortened}
	tr := &p.traffic
	tr.Exchanges, tr.Ephemeral, tr.From, tr.Latest = exs, p.ephemeral, p.from, true
	if p.blocks != nil {
		thread.Share(tr, p.blocks)
	}
	for _, f := range check.Judge(tr, p.checks) {
		if f.Interaction != p.next {
			continue
		}
		v.Findings = append(v.Findings, f)
		if f.Severity == check.SeverityError && v.Rejection == nil {
			v.Rejection = Reject(p.wire, p.byID[f.Check], f)
		}
	}
	return v
}

// Add appends an answered call (rejected ones too) to the history; its
// Index is set to its place in the conversation. The linter keeps ex's
// request and response as they are, and their blocks' fingerprints by
// address: they must not change once added.
func (l *Linter) Add(ex traffic.Exchange) { l.add(ex, nil) }

func (l *Linter) add(ex traffic.Exchange, later *deferred) {
	ex.Index = len(l.history)
	ex.RequestBody, ex.ResponseBody = nil, nil // later requests are judged against the decoded call
	if l.blocks == nil {
		l.blocks = thread.NewPrints()
	}
	p := printOf(&ex, l.blocks, l.last())
	p.base = -1
	if !l.seen.fresh(&ex, l.blocks) {
		p.base = latestExtended(l.prints, p)
	}
	l.seen.add(&ex, l.taken(p), l.blocks) // printOf has just fingerprinted its blocks there
	l.history = append(l.history, ex)
	l.prints = append(l.prints, p)
	l.later = append(l.later, later)
	// A judgement whose traffic begins with this call takes its threading
	// fingerprints from here instead of working out its whole history.
	l.blocks.Keep(&l.history[len(l.history)-1])
}

// last is the latest call with its print, or the zero printed.
func (l *Linter) last() printed {
	if len(l.history) == 0 {
		return printed{}
	}
	return printed{&l.history[len(l.history)-1], &l.prints[len(l.prints)-1]}
}

// trafficBuffers are the exchange lists Judge builds and drops, reused so
// that judging a call allocates nothing in proportion to the history.
var trafficBuffers = sync.Pool{New: func() any { return new([]traffic.Exchange) }}

// extended is the index of the latest call next extends unchanged, or -1
// when there is none.
func (l *Linter) extended(next print) int { return latestExtended(l.prints, next) }

// latestExtended is the index in prints of the latest call next extends
// unchanged, or -1 when there is none.
func latestExtended(prints []print, next print) int {
	for i := len(prints) - 1; i >= 0; i-- {
		if prints[i].extends(next) {
			return i
		}
	}
	return -1
}

// taken is how many of p's messages seen already holds: those of the
// latest call p extends (p.base), 0 when none.
func (l *Linter) taken(p print) int {
	if p.base < 0 {
		return 0
	}
	return len(l.prints[p.base].prefix)
}

// Len is the number of calls in the history.
func (l *Linter) Len() int { return len(l.history) }

// Forget drops the oldest calls, keeping the last keep, so a long session
// neither grows without end nor lints ever more slowly. A request carries
// its whole conversation; the calls that produced its latest turns are the
// ones the checks compare it with.
func (l *Linter) Forget(keep int) {
	if len(l.history) <= keep {
		return
	}
	// In place: judgements copy the calls they need, and the arrays,
	// kept at their size, take the next calls without growing again.
	cut := len(l.history) - keep
	l.history = forgetAllBut(l.history, keep)
	l.prints = forgetAllBut(l.prints, keep)
	l.later = forgetAllBut(l.later, keep)
	l.seen = seen{}
	// A judgement under way keeps the old fingerprints; the new ones are
	// the kept calls', carried over, not worked out again.
	l.blocks = l.blocks.Carry()
	for i := range l.history {
		l.history[i].Index = i
		carryBlocks(&l.history[i], l.blocks)
		// As Add does: a call that extends a kept one adds its new
		// messages only, so a long conversation is not hashed whole
		// once per kept call. The latest call it extends is kept, or
		// else none it extends is.
		if p := &l.prints[i]; p.base >= 0 {
			p.base = max(p.base-cut, -1)
		}
		l.seen.add(&l.history[i], l.taken(l.prints[i]), l.blocks)
	}
	l.blocks.Settle()
}

// forgetAllBut moves the last keep elements of s to its start and clears
// the rest, so that nothing they referenced is held.
func forgetAllBut[T any](s []T, keep int) []T {
	n := copy(s, s[len(s)-keep:])
	clear(s[n:])
	return s[:n]
}

// carryBlocks asks known for the fingerprint of every block printOf
// fingerprints in ex's request, so that a Carry takes them over.
func carryBlocks(ex *traffic.Exchange, known *thread.Prints) {
	req := ex.Request
	if req == nil || req.PreviousResponseID != "" {
		return
	}
	h := thread.NewHasherWith(ex.Wire, known)
	h.Blocks(req.System)
	for m := range req.Messages {
		h.Blocks(req.Messages[m].Blocks)
	}
}

// History is a copy of the calls judged so far, in order, their
// responses decoded.
func (l *Linter) History() []traffic.Exchange {
	h := append([]traffic.Exchange(nil), l.history...)
	for i, d := range l.later {
		if d != nil {
			h[i] = d.decoded(h[i])
		}
	}
	return h
}
