package check

import (
	"slices"
	"sync"

	"github.com/llmtck/llmtck/engine"
)

// Traffic is what the checks judge: every exchange of one cassette, in order.
// Its exchanges must not change once it has been judged: the analyses the
// check families share are kept on it.
type Traffic struct {
	Path      string
	Exchanges []engine.Exchange
	// Ephemeral is content the harness was told to send once and never
	// persist (a scenario's schema-retry feedback); HIST-005 finds it
	// anywhere but the last message of a request.
	Ephemeral []string
	// Torn is how many bytes at the end of the recording were an
	// interaction cut in the middle, left out of Exchanges.
	Torn int64

	analyses sync.Map // analysis name → its value for this traffic
}

// Analysis returns the named analysis of tr, building it on first use, so a
// walk that several checks of one family need is paid once per traffic.
func Analysis[T any](tr *Traffic, name string, build func(*Traffic) T) T {
	if v, ok := tr.analyses.Load(name); ok {
		return v.(T)
	}
	v, _ := tr.analyses.LoadOrStore(name, build(tr))
	return v.(T)
}

// wires is the set of wires tr's exchanges speak, found once per traffic
// (every check asks).
func (tr *Traffic) wires() []engine.Wire {
	return Analysis(tr, "check.wires", func(tr *Traffic) []engine.Wire {
		var set []engine.Wire // a handful at most: a slice beats a map
		for i := range tr.Exchanges {
			if w := tr.Exchanges[i].Wire; !slices.Contains(set, w) {
				set = append(set, w)
			}
		}
		return set
	})
}

// exchange is the exchange whose Index is index: normally the one at that
// position, since Index is the position in the cassette.
func (tr *Traffic) exchange(index int) *engine.Exchange {
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
