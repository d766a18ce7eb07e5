package thread

import (
	"sync"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/engine"
)

// Prints remembers block fingerprints by the block's address. A
// conversation decoded through an engine.Memo shares each repeated message,
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
	mu    sync.RWMutex        // the linter's is read by judgements running side by side
	m     map[printKey]uint64 // nil: looks up only
	under *Prints
	solo  bool // one judgement's or one traffic's: one goroutine, no lock
}

// NewPrints returns an empty Prints.
func NewPrints() *Prints { return &Prints{m: map[printKey]uint64{}} }

// Over returns a Prints that looks p up and keeps what it learns itself;
// with keep false it keeps nothing. It is for one judgement: one goroutine.
func (p *Prints) Over(keep bool) *Prints {
	q := &Prints{under: p, solo: true}
	if keep {
		q.m = map[printKey]uint64{}
	}
	return q
}

// printKey is a block and the hasher's settings: the same block has
// another fingerprint without its payloads or with Gemini's alphabet.
type printKey struct {
	b                *engine.Block
	gemini, payloads bool
}

func (p *Prints) get(k printKey) (uint64, bool) {
	if p.under != nil {
		if fp, ok := p.under.get(k); ok {
			return fp, true
		}
	}
	if p.m == nil {
		return 0, false
	}
	if p.solo {
		fp, ok := p.m[k]
		return fp, ok
	}
	p.mu.RLock()
	fp, ok := p.m[k]
	p.mu.RUnlock()
	return fp, ok
}

func (p *Prints) put(k printKey, fp uint64) {
	if p.m == nil {
		return
	}
	if !p.solo {
		p.mu.Lock()
		defer p.mu.Unlock()
	}
	if len(p.m) < maxPrints {
		p.m[k] = fp
	}
}

// maxPrints bounds the fingerprints a Prints keeps (about 10 MB): a
// conversation repeats few distinct blocks, while a recording of a
// million independent calls, which repeats none, should not grow a map
// of them all.
const maxPrints = 1 << 18

// NewHasherWith returns a hasher for wire w's history that looks block
// fingerprints up in p and keeps the ones it works out there.
func NewHasherWith(w engine.Wire, p *Prints) *Hasher {
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

// HasherFor returns a hasher for wire w's history that shares tr's Prints:
// the one given to Share, or else one of tr's own. A traffic of one
// request has nothing of its own to share.
func HasherFor(tr *check.Traffic, w engine.Wire) *Hasher {
	return NewHasherWith(w, check.Analysis(tr, printsAnalysis, func(tr *check.Traffic) *Prints {
		if len(tr.Exchanges)-tr.From < 2 {
			return nil
		}
		return &Prints{m: map[printKey]uint64{}, solo: true}
	}))
}
