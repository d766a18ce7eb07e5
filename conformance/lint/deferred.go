package lint

import (
	"sync"

	"github.com/llmtck/llmtck/traffic"
)

// AddDeferred is Add for a call whose response is not decoded yet:
// decodeResponse decodes it into the exchange it is given the first time a
// judgement needs the call, and never when none does. (A new
// conversation's request is judged alone, so an eval harness's answers are
// never decoded.) ex must carry what the history's fingerprints read, its
// request and its Status; decodeResponse must add the response and change
// neither. It runs once: in History, or in the Verdict of the first
// judgement that needs it, outside any lock the caller holds around
// Prepare.
func (l *Linter) AddDeferred(ex traffic.Exchange, decodeResponse func(*traffic.Exchange)) {
	l.add(ex, &deferred{decode: decodeResponse})
}

// deferred is a call in the history whose response is decoded on demand.
type deferred struct {
	once   sync.Once
	decode func(*traffic.Exchange)
	ex     traffic.Exchange // the call, its response decoded
}

// decoded is ex, a copy of the call as it was added, with its response
// decoded. The first copy given is the one decoded; the others differ from
// it in their Index at most (Forget renumbers the calls), which is kept.
func (d *deferred) decoded(ex traffic.Exchange) traffic.Exchange {
	d.once.Do(func() {
		d.ex = ex
		d.decode(&d.ex)
		d.decode = nil
	})
	out := d.ex
	out.Index = ex.Index
	return out
}
