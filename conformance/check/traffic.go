package check

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/llmtck/llmtck/traffic"
)

// Traffic is what the checks judge: every exchange of one cassette, in order.
// Its exchanges must not change once it has been judged: the analyses the
// check families share are kept on it.
type Traffic struct {
	Path      string
	Exchanges []traffic.Exchange
	// Ephemeral is content the harness was told to send once and never
	// persist (a scenario's schema-retry feedback); HIST-005 finds it
	// anywhere but the last message of a request.
	Ephemeral []string
	// Torn is how many bytes at the end of the recording were an
	// interaction cut in the middle, left out of Exchanges.
	Torn int64
	// From is where the exchanges to read begin. A live judgement of one
	// request leaves the calls it does not need as zero values before
	// From, so every exchange keeps its position and every finding its
	// interaction number; checks start at From. Zero for a recording.
	From int
	// Latest says only the findings about the last exchange are wanted
	// (a live judgement of one request, whose calls before were judged
	// when each was the latest): a check may leave the exchanges before it
	// unjudged where its judgement of the last does not depend on having
	// judged them. False for a recording.
	Latest bool

	// Every check asks for its family's analysis, so they are read without
	// the lock: the first built entries of analyses are whole and never
	// change (an adder writes the entry, then stores the new count).
	// Adding one takes mu, and so does reading more, which holds those
	// past the first maxAnalyses.
	mu       sync.Mutex
	built    atomic.Int32
	analyses [maxAnalyses]analysis
	more     []analysis
	// wireRoom backs wireSet for a traffic of a wire or two (a live
	// judgement of one request), which then allocates nothing.
	wireRoom [2]traffic.Wire

	wiresOnce sync.Once
	wireSet   []traffic.Wire
}

// maxAnalyses is room for every family's analysis and the ones they share
// (five today), with room for a custom check's.
const maxAnalyses = 8

type analysis struct {
	name  string
	value any
}

// Analysis returns the named analysis of tr, building it on first use, so a
// walk that several checks of one family need is paid once per traffic.
// The build runs outside the lock: it may ask for other analyses.
func Analysis[T any](tr *Traffic, name string, build func(*Traffic) T) T {
	if v, ok := tr.published(name); ok {
		return v.(T)
	}
	tr.mu.Lock()
	v, ok := tr.lookup(name)
	tr.mu.Unlock()
	if ok {
		return v.(T)
	}
	built := build(tr)
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if v, ok := tr.lookup(name); ok { // built meanwhile by another check: keep one
		return v.(T)
	}
	if n := tr.built.Load(); n < maxAnalyses {
		tr.analyses[n] = analysis{name, built}
		tr.built.Store(n + 1)
	} else {
		tr.more = append(tr.more, analysis{name, built})
	}
	return built
}

// published finds the named analysis among the first maxAnalyses, without
// the lock.
func (tr *Traffic) published(name string) (any, bool) {
	for _, a := range tr.analyses[:tr.built.Load()] {
		if a.name == name {
			return a.value, true
		}
	}
	return nil, false
}

// lookup finds the named analysis; tr.mu is held.
func (tr *Traffic) lookup(name string) (any, bool) {
	if v, ok := tr.published(name); ok {
		return v, true
	}
	for _, a := range tr.more {
		if a.name == name {
			return a.value, true
		}
	}
	return nil, false
}

// WantedFrom is the first exchange whose findings are wanted: From, or
// under Latest the last exchange. A check whose judgement of a request
// does not depend on the requests before it starts there; one that
// reports each distinct thing once, at the first request that sends it,
// starts at From.
func (tr *Traffic) WantedFrom() int {
	if tr.Latest {
		return max(tr.From, len(tr.Exchanges)-1)
	}
	return tr.From
}

// wires is the set of wires tr's exchanges speak, found once per traffic
// (every check asks).
func (tr *Traffic) wires() []traffic.Wire {
	tr.wiresOnce.Do(func() {
		tr.wireSet = tr.wireRoom[:0]
		for i := tr.From; i < len(tr.Exchanges); i++ {
			if w := tr.Exchanges[i].Wire; !slices.Contains(tr.wireSet, w) {
				tr.wireSet = append(tr.wireSet, w)
			}
		}
	})
	return tr.wireSet
}

// exchange is the exchange whose Index is index: normally the one at that
// position, since Index is the position in the cassette.
func (tr *Traffic) exchange(index int) *traffic.Exchange {
	if index >= 0 && index < len(tr.Exchanges) && tr.Exchanges[index].Index == index {
		return &tr.Exchanges[index]
	}
	for i := range tr.Exchanges {
		if tr.Exchanges[i].Index == index {
			return &tr.Exchanges[i]
		}
	}
	return nil
}
