package thread

import (
	"sync"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/engine"
)

// Prints remembers block fingerprints by the block's address for the
// requests of one traffic. A conversation decoded through an engine.Memo
// shares each repeated message, blocks and all, between the requests that
// repeat it, so a block is hashed once per traffic instead of once per
// request: judging a growing conversation hashes each turn once, not once
// per later turn. It holds only while the blocks do not change, as a
// traffic's do not while it is judged.
type Prints struct {
	mu sync.Mutex
	m  map[printKey]uint64
}

// printKey is a block and the hasher's settings: the same block has
// another fingerprint without its payloads or with Gemini's alphabet.
type printKey struct {
	b                *engine.Block
	gemini, payloads bool
}

func (p *Prints) get(k printKey) (uint64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fp, ok := p.m[k]
	return fp, ok
}

func (p *Prints) put(k printKey, fp uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.m) < maxPrints {
		p.m[k] = fp
	}
}

// maxPrints bounds the fingerprints a traffic keeps (about 10 MB): a
// conversation repeats few distinct blocks, while a recording of a
// million independent calls, which repeats none, should not grow a map
// of them all.
const maxPrints = 1 << 18

// HasherFor returns a hasher for wire w's history that shares tr's Prints.
// A traffic of one request has nothing to share: its hasher keeps none.
func HasherFor(tr *check.Traffic, w engine.Wire) *Hasher {
	f := NewHasher(w)
	if len(tr.Exchanges)-tr.From > 1 {
		f.known = check.Analysis(tr, "thread.prints", func(*check.Traffic) *Prints {
			return &Prints{m: map[printKey]uint64{}}
		})
	}
	return f
}
