package lint

import (
	"slices"
	"strconv"
	"strings"

	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/traffic"
)

// print fingerprints one request so that a later request that extends it
// unchanged is recognised in time linear in that request: the same
// settings, and its messages as the first messages of the later one (as
// the checks compare histories: thread.Hasher).
type print struct {
	ok       bool // a decoded request a later one can extend
	accepted bool
	wire     traffic.Wire
	settings uint64
	prefix   []uint64 // prefix[k] fingerprints messages[:k+1]
	// base is, for a call in the history, the index of the latest call
	// before it that it extends, -1 when none (or when it is fresh: it
	// shares no block with any, so seen takes in all of its own).
	base int
}

// printOf fingerprints ex's request, looking its blocks up in known (nil:
// none). Chained Responses requests (previous_response_id) hold only their
// new items and are never extended. The messages ex's request shares, in
// memory, with before's (the zero printed: none), as a growing
// conversation decoded through a memo does, keep before's fingerprints:
// only the messages after them are hashed.
func printOf(ex *traffic.Exchange, known *thread.Prints, before printed) print {
	req := ex.Request
	if req == nil || req.PreviousResponseID != "" {
		return print{}
	}
	h := thread.NewHasherWith(ex.Wire, known)
	s := h.String(req.Model)
	s = thread.Mix(s, h.Blocks(req.System))
	s = thread.Mix(s, h.Tools(req.Tools))
	if req.Thinking != nil {
		s = thread.Mix(s, h.String(string(req.Thinking.Raw)))
	}
	s = thread.Mix(s, h.String(string(req.ToolChoice)))
	var flags strings.Builder
	for _, b := range []bool{req.Stream, req.SystemString, req.InputString, req.Store != nil, req.Store != nil && *req.Store} {
		flags.WriteString(strconv.FormatBool(b))
	}
	flags.WriteString(strings.Join(req.Include, ","))
	s = thread.Mix(s, h.String(flags.String()))
	keys := make([]string, 0, len(req.Extra))
	for k := range req.Extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		s = thread.Mix(s, h.String(k+"\x00"+string(req.Extra[k])))
	}
	p := print{ok: true, accepted: ex.Accepted(), wire: ex.Wire, settings: s, prefix: make([]uint64, len(req.Messages))}
	from := before.shared(ex)
	var run uint64
	if from > 0 {
		copy(p.prefix, before.print.prefix[:from])
		run = p.prefix[from-1]
	}
	for k := from; k < len(req.Messages); k++ {
		run = thread.Mix(run, h.Message(&req.Messages[k]))
		p.prefix[k] = run
	}
	return p
}

// printed is a call with its print.
type printed struct {
	ex    *traffic.Exchange
	print *print
}

// shared is how many of ex's request's first messages are, in memory, the
// messages of the printed call's request, fingerprinted on the same wire:
// 0 when they are not.
func (c printed) shared(ex *traffic.Exchange) int {
	if c.ex == nil || !c.print.ok || c.print.wire != ex.Wire || c.ex.Request == nil {
		return 0
	}
	prev := c.ex.Request.Messages
	if !thread.StartsWith(ex.Request.Messages, prev) || len(c.print.prefix) != len(prev) {
		return 0
	}
	return len(prev)
}

// extends reports whether next's request carries p's, accepted, unchanged
// at its start: same settings, p's messages first.
func (p print) extends(next print) bool {
	n := len(p.prefix)
	return p.ok && next.ok && p.accepted && p.wire == next.wire && p.settings == next.settings &&
		n > 0 && n <= len(next.prefix) && p.prefix[n-1] == next.prefix[n-1]
}
