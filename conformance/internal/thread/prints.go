package thread

import (
	"sync"
	"sync/atomic"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

// Prints remembers block fingerprints by the block's address. A
// conversation decoded through an traffic.Memo shares each repeated message,
// blocks and all, between the requests that repeat it, so a block is
// hashed once instead of once per request that repeats it: judging a
// growing conversation hashes each turn once, not once per later turn. A
// fingerprint holds only while its block does not change: a traffic's
// blocks do not while it is judged, and a linter's history never does.
//
// A Prints may sit on another it only reads (Over): a judgement's own
// fingerprints over the linter's history, so that nothing of a request
// being judged outlives the judgement.
type Prints struct {
	// own holds the fingerprints of a Prints one goroutine uses (solo).
	// The linter's, which judgements running side by side read while a
	// call is added, keeps in own only the latest, under mu, and moves
	// them now and then into settled, a table never written once stored:
	// most lookups then take no lock (a lock per block was a tenth of
	// judging a long conversation).
	own     printTable
	mu      sync.RWMutex
	settled atomic.Pointer[printTable]
	keeps   bool // false: looks up only
	under   *Prints
	from    *Prints // what a Carry copies its fingerprints from; nil once Settled
	solo    bool    // one judgement's or one traffic's: one goroutine, no lock

	keptMu   sync.Mutex
	kept     [keptPrints]*keptPrint // ring of the latest Keep's
	keptNext int
	lent     []*keptPrint // rooms a judgement's Prints borrowed (borrow)
	released int          // and has given back (Release)
}

// printTable holds fingerprints by block, a map per hasher setting
// (printKey.setting), each made on first use: a map keyed by a pointer
// alone is looked up the fastest way a Go map has.
type printTable struct {
	m [4]map[*traffic.Block]uint64
	n int
}

func (t *printTable) get(k printKey) (uint64, bool) {
	if t == nil {
		return 0, false
	}
	fp, ok := t.m[k.setting][k.b]
	return fp, ok
}

func (t *printTable) put(k printKey, fp uint64) {
	m := t.m[k.setting]
	if m == nil {
		m = map[*traffic.Block]uint64{}
		t.m[k.setting] = m
	}
	if _, ok := m[k.b]; !ok {
		t.n++
	}
	m[k.b] = fp
}

// NewPrints returns an empty Prints.
func NewPrints() *Prints { return &Prints{keeps: true} }

// Over returns a Prints that looks p up and keeps what it learns itself;
// with keep false it keeps nothing. It is for one judgement: one goroutine.
func (p *Prints) Over(keep bool) *Prints { return &Prints{under: p, solo: true, keeps: keep} }

// Carry returns an empty Prints that takes over each fingerprint p holds
// as it is asked for it: a linter that forgets part of its history keeps
// the fingerprints of the rest without hashing those blocks again. Settle
// it once it has been asked for every block it should keep; p is only read.
func (p *Prints) Carry() *Prints {
	c := &Prints{keeps: true, from: p}
	p.keptMu.Lock()
	c.kept, c.keptNext = p.kept, p.keptNext // the requests' prints hold whatever is forgotten
	p.keptMu.Unlock()
	return c
}

// Settle ends what Carry began: the fingerprints not asked for are left
// behind with the Prints carried from.
func (p *Prints) Settle() { p.from = nil }

// printKey is a block and the hasher's settings: the same block has
// another fingerprint without its payloads or with Gemini's alphabet.
type printKey struct {
	b       *traffic.Block
	setting uint8 // gemini<<1 | payloads
}

func keyOf(b *traffic.Block, gemini, payloads bool) printKey {
	k := printKey{b: b}
	if gemini {
		k.setting |= 2
	}
	if payloads {
		k.setting |= 1
	}
	return k
}

func (p *Prints) get(k printKey) (uint64, bool) {
	if p.under != nil {
		if fp, ok := p.under.get(k); ok {
			return fp, true
		}
	}
	if !p.keeps {
		return 0, false
	}
	if p.solo {
		return p.own.get(k)
	}
	if fp, ok := p.settled.Load().get(k); ok {
		return fp, true
	}
	// A fingerprint moved to settled meanwhile is missed: it is worked
	// out again, no harm done.
	p.mu.RLock()
	fp, ok := p.own.get(k)
	p.mu.RUnlock()
	if !ok && p.from != nil {
		if fp, ok = p.from.get(k); ok {
			p.put(k, fp)
		}
	}
	return fp, ok
}

func (p *Prints) put(k printKey, fp uint64) {
	if !p.keeps {
		return
	}
	if p.solo {
		if p.own.n < maxPrints {
			p.own.put(k, fp)
		}
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	settled := p.settled.Load()
	n := 0
	if settled != nil {
		n = settled.n
	}
	if n+p.own.n >= maxPrints {
		return
	}
	p.own.put(k, fp)
	// Settle own once it is a quarter of what is settled: each
	// fingerprint is copied a few times in all, however many there are.
	if p.own.n >= max(64, n/4) {
		p.settled.Store(p.own.mergedWith(settled))
		p.own = printTable{}
	}
}

// mergedWith returns a new table of t's fingerprints and settled's.
func (t *printTable) mergedWith(settled *printTable) *printTable {
	out := &printTable{n: t.n}
	for s := range t.m {
		size := len(t.m[s])
		if settled != nil {
			size += len(settled.m[s])
		}
		if size == 0 {
			continue
		}
		m := make(map[*traffic.Block]uint64, size)
		if settled != nil {
			for b, fp := range settled.m[s] {
				m[b] = fp
			}
		}
		for b, fp := range t.m[s] {
			if _, ok := m[b]; ok {
				out.n--
			}
			m[b] = fp
		}
		out.m[s] = m
	}
	if settled != nil {
		out.n += settled.n
	}
	return out
}

// maxPrints bounds the fingerprints a Prints keeps (about 10 MB): a
// conversation repeats few distinct blocks, while a recording of a
// million independent calls, which repeats none, should not grow a map
// of them all.
const maxPrints = 1 << 18

// NewHasherWith returns a hasher for wire w's history that looks block
// fingerprints up in p and keeps the ones it works out there.
func NewHasherWith(w traffic.Wire, p *Prints) *Hasher {
	f := NewHasher(w)
	f.known = p
	return f
}

// Share makes p the Prints of tr's hashers (HasherFor). Call it before
// judging tr.
func Share(tr *check.Traffic, p *Prints) {
	check.Analysis(tr, printsAnalysis, func(*check.Traffic) *Prints { return p })
}

const printsAnalysis = "thread.prints"

// Len is the number of fingerprints p keeps itself (not those of the
// Prints it sits on).
func (p *Prints) Len() int {
	if p.solo {
		return p.own.n
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	n := p.own.n
	if settled := p.settled.Load(); settled != nil {
		n += settled.n
	}
	return n
}

// HasherFor returns a hasher for wire w's history that shares tr's Prints:
// the one given to Share, or else one of tr's own. A traffic of one
// request has nothing of its own to share.
func HasherFor(tr *check.Traffic, w traffic.Wire) *Hasher { return NewHasherWith(w, printsOf(tr)) }

// printsOf is the Prints tr's hashers share (see HasherFor).
func printsOf(tr *check.Traffic) *Prints {
	return check.Analysis(tr, printsAnalysis, func(tr *check.Traffic) *Prints {
		if len(tr.Exchanges)-tr.From < 2 {
			return nil
		}
		return &Prints{keeps: true, solo: true}
	})
}
