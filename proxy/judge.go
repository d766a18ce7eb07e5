package proxy

import (
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/traffic"
)

// Judge judges the requests of one cassette as they arrive, each against
// the calls answered before it. The proxy keeps one per cassette and
// guards it: Prepare may run beside other Prepares, the rest alone.
// *lint.Linter is one; the caller builds it with the checks it wants, so
// the proxy links no check itself.
type Judge interface {
	// Prepare takes what judging next needs; its Verdict then runs
	// without the proxy's lock.
	Prepare(next traffic.Exchange) *lint.Pending
	// Add remembers an answered call; AddDeferred one whose response
	// later decodes the first time a judgement needs it.
	Add(ex traffic.Exchange)
	AddDeferred(ex traffic.Exchange, later func(*traffic.Exchange))
	// Len is the number of calls remembered; Forget drops the oldest n.
	Len() int
	Forget(n int)
	// AddEphemeral declares content the harness sends once and never
	// persists.
	AddEphemeral(text string)
}

var _ Judge = (*lint.Linter)(nil)
