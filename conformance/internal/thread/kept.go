package thread

import (
	"sync/atomic"

	"github.com/llmtck/llmtck/traffic"
)

// keptPrint is what newRequest works out for a request, kept with a
// linter's Prints for a call the linter has added (Prints.Keep): a
// judgement's traffic begins with such a call, and takes its fingerprints
// instead of working out those of its whole history again. Its slices are
// never written below their length: a later print that extends them in
// place (a growing conversation, decoded through an traffic.Memo, shares
// one message list) writes only after it.
type keptPrint struct {
	wire   traffic.Wire
	head   uint64
	msgs   []traffic.Message // the history after the lead
	starts []int
	mfps   []uint64
	units  []Unit
	// room says who may write after the slices' length: the print of the
	// next call Keep keeps for good (roomTaken), or a judgement's print of
	// the request it judges until the judgement is over (roomLent: see
	// Prints.borrow). Whoever finds it taken copies the slices instead.
	room atomic.Int32
}

// The states of keptPrint.room.
const (
	roomFree  = iota
	roomLent  // to a judgement, until Prints.Release
	roomTaken // by the print of a later call, for good
)

// keptPrints is how many requests a Prints keeps the print of: the latest
// of a few conversations side by side (an agent, its sub-agents, side
// calls such as titles).
const keptPrints = 8

// Keep fingerprints ex's request as threading does, and keeps that for
// judgements to take (see keptPrint). A request that extends, in memory, one
// kept before is fingerprinted only where it goes beyond it. Call Keep when
// ex joins the history p fingerprints, one call at a time; judgements may
// read p meanwhile.
func (p *Prints) Keep(ex *traffic.Exchange) {
	req := ex.Request
	if req == nil || ex.Wire == traffic.WireUnknown || ex.Wire == "" || req.PreviousResponseID != "" {
		return
	}
	if len(req.Messages) < 2 {
		return // an eval harness's prompt, or a conversation's first: fingerprinted in no time
	}
	f := NewHasherWith(ex.Wire, p)
	k := &keptPrint{wire: ex.Wire}
	var lead int
	k.head, lead = headOf(f, ex.Wire, req)
	k.msgs = req.Messages[lead:]
	from := 0
	if base := p.printed(k.wire, k.head, k.msgs); base != nil {
		from = len(base.msgs)
		if base.room.CompareAndSwap(roomFree, roomTaken) {
			k.starts, k.mfps, k.units = base.starts, base.mfps, base.units
		} else { // its room is another's: copy
			k.starts, k.mfps, k.units = clip(base.starts), clip(base.mfps), clip(base.units)
		}
	}
	k.starts, k.mfps, k.units = fingerprint(f, k.msgs, from, k.starts, k.mfps, k.units)
	p.keptMu.Lock()
	p.kept[p.keptNext%keptPrints] = k
	p.keptNext++
	p.keptMu.Unlock()
}

// printed is the kept print, here or in the Prints p sits on, of the
// longest request under wire and head whose history msgs starts with in
// memory; nil when there is none.
func (p *Prints) printed(w traffic.Wire, head uint64, msgs []traffic.Message) *keptPrint {
	var best *keptPrint
	for ; p != nil; p = p.under {
		p.keptMu.Lock()
		for _, k := range p.kept {
			if k != nil && k.wire == w && k.head == head && StartsWith(msgs, k.msgs) && (best == nil || len(k.msgs) > len(best.msgs)) {
				best = k
			}
		}
		p.keptMu.Unlock()
	}
	return best
}

// borrow lends a judgement the room after k's slices: the request it
// judges, which extends k's (the next turn of a growing conversation),
// then grows them in place instead of copying them whole. It reports
// whether k's room was free. Only a judgement's own Prints (Over) borrows;
// Release gives the room back once the judgement is over, and the call
// that the linter then keeps takes it for good.
func (p *Prints) borrow(k *keptPrint) bool {
	if p == nil || !p.solo || p.under == nil || !k.room.CompareAndSwap(roomFree, roomLent) {
		return false
	}
	p.lent = append(p.lent, k)
	return true
}

// Release gives back the room a judgement borrowed: call it once the
// judgement is over, when nothing reads its requests' prints any more.
func (p *Prints) Release() {
	for _, k := range p.lent {
		k.room.Store(roomFree)
	}
	p.released += len(p.lent)
	p.lent = nil
}

// Rooms reports how many rooms of kept prints p has borrowed, and how many
// of those it has given back.
func (p *Prints) Rooms() (borrowed, released int) { return p.released + len(p.lent), p.released }
