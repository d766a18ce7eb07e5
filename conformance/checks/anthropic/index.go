package anthropic

import (
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/origin"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/traffic"
)

// analysis is what the Anthropic checks learn from one walk over the
// traffic: every signed thinking block, redacted block and tool call indexed
// by the response that produced it, and every echo of one in a later request
// resolved to that origin, wherever in the cassette it was. The walk visits
// each exchange once and looks origins up in maps, so the checks stay linear
// in the size of the traffic.
type analysis struct {
	tr *check.Traffic
	// reqs holds the request of exchange tr.From+k at k, nil where there
	// is no Anthropic request: the judged exchanges only (see req).
	reqs []*request

	// origins ties an echo to the first Anthropic response that produced
	// its payload, thinking text or tool_use id.
	origins *origin.Index
	full    map[uint64]int // hash of a request's whole history → latest exchange with output
	// accepted holds, for every message of every accepted request, the
	// hash of its judging context: model, system, tools and the history up
	// to and including it. An accepted request's contexts go in only when
	// a lookup needs them (wasAccepted): reqs[:indexed] are in, and
	// unindexedLen is the most messages of an accepted request after them.
	accepted     map[uint64]bool
	indexed      int
	unindexedLen int
	h            *thread.Hasher
	// threads has each request's message fingerprints, hashed with h's
	// wire and table: resolve takes them instead of hashing again.
	threads *thread.Analysis
	// last is the latest request resolved: a request that extends its
	// messages in memory, in the same context, once the provider took it,
	// takes over their hashes and knows them judged.
	last *request
}

// source is one block of a recorded Anthropic response.
type source struct {
	ex    int // exchange index
	pos   int // block index in the output message
	block *traffic.Block
	// unfinished: the response's stream did not complete and this block
	// was cut (no signature, or the decoder marked it Incomplete).
	unfinished bool
}

// matchKind says how an echoed block was tied to its origin.
type matchKind int

const (
	unmatched  matchKind = iota
	bySig                // the payload (signature or data) equals a recorded one
	byText               // the thinking text equals a recorded one; the payload differs
	byPosition           // same place in the message that echoes a recorded response
)

// echo is a thinking or redacted_thinking block of an assistant message.
type echo struct {
	msg, pos int // message index, block index
	block    *traffic.Block
	origin   *source
	match    matchKind
}

// toolEcho is a tool_use block of an assistant message.
type toolEcho struct {
	msg, pos int
	block    *traffic.Block
	origin   *source
}

// request is one Anthropic request with its echoes resolved.
type request struct {
	at      int // position in the traffic
	ex      *traffic.Exchange
	req     *traffic.Request
	msgHash []uint64
	prefix  []uint64 // prefix[k] hashes messages[:k]
	system  uint64
	tools   uint64
	setting uint64 // model, thinking, system and tools: what every message's context starts from
	// The fields from producer to silent are the request's echoes, tied to
	// their origins. They are nil for a request of a live judgement
	// (Traffic.Latest) before the last: the checks read them only for the
	// request they judge (each), and only the last is judged.
	//
	// producer[k] is the latest earlier exchange whose request history was
	// exactly messages[:k] and that got a response: the call that produced
	// message k, when the cassette holds it. -1 otherwise.
	producer []int
	// origin[k] is the exchange whose response assistant message k echoes,
	// tied by a signature, thinking text, tool_use id or (with producer) a
	// shared text block; -1 when the message is not recognisably one. Only
	// fresh messages are resolved: origin is -1 and echoes lists nothing
	// for the others (every message after a fresh one is fresh too).
	origin []int
	echoes []echo
	calls  []toolEcho // of every assistant message; origins of fresh ones only
	// lastAssistant is the index of the last assistant message, -1 if none.
	lastAssistant int
	// silent is the severity of the rules providers enforce only on
	// preserved-thinking models (silentSeverity).
	silent check.Severity
	// fresh[k] is false when an earlier accepted request sent message k in
	// the same context (model, thinking, system, tools, every message before
	// it). Such
	// a message was judged there and the provider took it, so the checks of
	// one message do not judge it again: a growing conversation is judged in
	// time linear in its size, and one old fault is not reported every turn.
	fresh []bool
	ctx   []uint64 // the judging context of each message
}

// analyze returns the analysis of tr, computed once per traffic: Judge
// runs the Anthropic checks one after the other, and each needs the same walk.
func analyze(tr *check.Traffic) *analysis { return check.Analysis(tr, "anthropic", newAnalysis) }

func newAnalysis(tr *check.Traffic) *analysis {
	a := &analysis{
		tr:      tr,
		reqs:    make([]*request, len(tr.Exchanges)-tr.From),
		origins: origin.Of(tr),
		h:       thread.HasherFor(tr, traffic.WireAnthropic),
		threads: thread.Of(tr),
	}
	for i := tr.From; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.Wire == traffic.WireAnthropic && ex.Request != nil {
			// Request i sees only what earlier responses produced.
			r := a.resolve(i, ex, !tr.Latest || i == len(tr.Exchanges)-1)
			a.reqs[i-tr.From] = r
			a.last = r
			if !ex.Accepted() {
				continue
			}
			// The map is made by the first accepted request: a request
			// judged alone needs none.
			if a.full == nil {
				a.full = map[uint64]int{}
			}
			if outputOf(ex) != nil {
				a.full[r.prefix[len(r.prefix)-1]] = i
			}
			a.unindexedLen = max(a.unindexedLen, len(r.ctx))
		}
	}
	return a
}

// mostMessages is the most messages a request tr judges holds: a size hint
// for a map with an entry per message, which would otherwise grow, and be
// rehashed, step by step.
func mostMessages(tr *check.Traffic) int {
	n := 0
	for i := tr.From; i < len(tr.Exchanges); i++ {
		if req := tr.Exchanges[i].Request; req != nil {
			n = max(n, len(req.Messages))
		}
	}
	return n
}

// outputOf is the assistant message of an Anthropic response, or nil.
func outputOf(ex *traffic.Exchange) *traffic.Message {
	if ex.Response == nil || len(ex.Response.Output) == 0 || len(ex.Response.Output[0].Blocks) == 0 {
		return nil
	}
	return &ex.Response.Output[0]
}

// output is the output message of exchange i.
func (a *analysis) output(i int) *traffic.Message {
	if i < 0 || i >= len(a.tr.Exchanges) {
		return nil
	}
	return outputOf(&a.tr.Exchanges[i])
}

func isThinkingBlock(b *traffic.Block) bool {
	return b.Type == traffic.BlockThinking || b.Type == traffic.BlockRedacted
}

// payloadOf is the opaque token that identifies a thinking block: the
// decoded signature, or the decoded data of a redacted block.
func payloadOf(b *traffic.Block) string { return string(payloadKey(b)) }

// payloadKey is payloadOf without the allocation, for map lookups.
func payloadKey(b *traffic.Block) []byte {
	switch b.Type {
	case traffic.BlockThinking:
		return payloadBytes(b.Signature)
	case traffic.BlockRedacted:
		return payloadBytes(b.Data)
	}
	return nil
}

// isPartial reports whether ex's response came from a stream that did not
// complete (cut off, or ended by an error event).
func isPartial(ex *traffic.Exchange) bool {
	st := ex.Response.Stream
	return st != nil && !st.Complete
}

// isUnfinished reports whether block b of a response must not be echoed:
// the decoder marked it Incomplete (never stopped, tool input that did not
// parse), or the stream was cut and b is thinking without its signature,
// which arrives last.
func isUnfinished(partial bool, b *traffic.Block) bool {
	if !partial {
		return false
	}
	return b.Incomplete || isThinkingBlock(b) && payloadOf(b) == ""
}

// resolve hashes a request's history and, with echoes, ties each echoed
// block to the response that produced it.
func (a *analysis) resolve(at int, ex *traffic.Exchange, echoes bool) *request {
	req := ex.Request
	n := len(req.Messages)
	hashes := make([]uint64, 3*n+1) // msgHash, prefix and ctx, in one allocation
	r := &request{
		at: at, ex: ex, req: req,
		msgHash:       hashes[:n:n],
		prefix:        hashes[n : 2*n+1 : 2*n+1],
		ctx:           hashes[2*n+1:],
		fresh:         make([]bool, n),
		system:        a.h.Blocks(req.System),
		tools:         a.h.Tools(req.Tools),
		lastAssistant: -1,
	}
	var thinking []byte
	if req.Thinking != nil {
		thinking = req.Thinking.Raw
	}
	r.setting = thread.Mix(thread.Mix(thread.Mix(a.h.String(req.Model), a.h.String(string(thinking))), r.system), r.tools)
	known := a.threads.MessagePrints(at) // the messages after the lead
	lead := n - len(known)
	shared := 0
	if l := a.last; l != nil && l.ex.Accepted() && l.setting == r.setting && thread.StartsWith(req.Messages, l.req.Messages) {
		// Its messages are these, in this context, in an accepted request:
		// their hashes carry over, and none is fresh.
		shared = len(l.req.Messages)
		copy(r.msgHash, l.msgHash)
		copy(r.prefix, l.prefix)
		copy(r.ctx, l.ctx)
	}
	for k := shared; k < n; k++ {
		if k >= lead {
			r.msgHash[k] = known[k-lead]
		} else {
			r.msgHash[k] = a.h.Message(&req.Messages[k])
		}
		r.prefix[k+1] = thread.Mix(r.prefix[k], r.msgHash[k])
		r.ctx[k] = thread.Mix(r.setting, r.prefix[k+1])
		r.fresh[k] = !a.wasAccepted(r, k)
	}
	if !echoes {
		return r
	}
	links := make([]int, 2*n)
	r.producer, r.origin = links[:n:n], links[n:]
	for k := range req.Messages {
		r.producer[k], r.origin[k] = -1, -1
		if p, ok := a.full[r.prefix[k]]; ok {
			r.producer[k] = p
		}
		if req.Messages[k].Role != traffic.RoleAssistant {
			continue
		}
		r.lastAssistant = k
		if r.fresh[k] {
			a.resolveMessage(r, k)
		} else {
			a.listCalls(r, k)
		}
	}
	r.silent = silentSeverity(r)
	return r
}

// wasAccepted reports whether an accepted request before r sent r's
// message k in its context (r.ctx[k]). The context of message k hashes
// the k+1 messages up to it, so only a request with more than k messages
// can have sent it: the accepted requests not yet indexed go into the map
// only for a lookup below the length of one of them. A conversation that
// grows by one exchange at a time looks up past every request before it,
// and none of them is indexed: judging the next turn live does not insert
// every message of the turn before again.
func (a *analysis) wasAccepted(r *request, k int) bool {
	if k < a.unindexedLen {
		a.index(r.at - a.tr.From)
	}
	return a.accepted[r.ctx[k]]
}

// index puts the contexts of the accepted requests in reqs[:before] in
// the accepted map.
func (a *analysis) index(before int) {
	if a.accepted == nil {
		a.accepted = make(map[uint64]bool, mostMessages(a.tr)) // an entry per message of the longest
	}
	for _, p := range a.reqs[a.indexed:before] {
		if p != nil && p.ex.Accepted() {
			for _, c := range p.ctx {
				a.accepted[c] = true
			}
		}
	}
	a.indexed, a.unindexedLen = before, 0
}

// listCalls records the tool calls of a message judged before, unresolved:
// only the id checks look at them again, to find repeated ids.
func (a *analysis) listCalls(r *request, k int) {
	m := &r.req.Messages[k]
	for p := range m.Blocks {
		if b := &m.Blocks[p]; b.Type == traffic.BlockToolCall {
			r.calls = append(r.calls, toolEcho{msg: k, pos: p, block: b})
		}
	}
}

// resolveMessage ties the thinking blocks and tool calls of assistant
// message k to their origins: by payload, then by thinking text, then by
// position within the response the message recognisably echoes.
func (a *analysis) resolveMessage(r *request, k int) {
	m := &r.req.Messages[k]
	first := len(r.echoes)
	anchor := -1
	for p := range m.Blocks {
		b := &m.Blocks[p]
		switch {
		case isThinkingBlock(b):
			e := echo{msg: k, pos: p, block: b}
			if o := a.first(origin.Payload, payloadOf(b), r.at); o != nil && payloadOf(b) != "" {
				e.origin, e.match = o, bySig
			} else if o := a.first(origin.Thinking, b.Text, r.at); o != nil && b.Type == traffic.BlockThinking && b.Text != "" {
				e.origin, e.match = o, byText
			}
			if e.origin != nil && anchor < 0 {
				anchor = e.origin.ex
			}
			r.echoes = append(r.echoes, e)
		case b.Type == traffic.BlockToolCall:
			c := toolEcho{msg: k, pos: p, block: b}
			if b.ID != "" {
				c.origin = a.first(origin.Call, b.ID, r.at)
			}
			if c.origin != nil && anchor < 0 {
				anchor = c.origin.ex
			}
			r.calls = append(r.calls, c)
		}
	}
	if anchor < 0 && r.producer[k] >= 0 && sharesText(m, a.output(r.producer[k])) {
		anchor = r.producer[k]
	}
	r.origin[k] = anchor
	out := a.output(anchor)
	if out == nil {
		return
	}
	// Pair the blocks still unmatched, in order, with the anchor response's
	// thinking blocks that no echo in this message claimed.
	claimed := map[*traffic.Block]bool{}
	for _, e := range r.echoes[first:] {
		if e.origin != nil {
			claimed[e.origin.block] = true
		}
	}
	next := 0
	for i := first; i < len(r.echoes); i++ {
		e := &r.echoes[i]
		if e.origin != nil {
			continue
		}
		for next < len(out.Blocks) && (!isThinkingBlock(&out.Blocks[next]) || claimed[&out.Blocks[next]]) {
			next++
		}
		if next == len(out.Blocks) {
			break
		}
		ob := &out.Blocks[next]
		e.origin = a.originAt(anchor, next)
		e.match = byPosition
		claimed[ob] = true
		next++
	}
}

// first is the first block of an Anthropic response before exchange
// before that produced the key, or nil.
func (a *analysis) first(kind origin.Kind, key string, before int) *source {
	o, ok := a.origins.First(traffic.WireAnthropic, kind, key, before)
	if !ok || o.Output != 0 {
		return nil
	}
	f := a.originAt(o.Exchange, o.Block)
	if f.unfinished {
		// A stream that failed, then answered again whole by its retry:
		// the finished block is what the request echoes.
		for _, later := range a.origins.All(kind, key, before) {
			if later.Wire == traffic.WireAnthropic && later.Output == 0 && later.Exchange > o.Exchange {
				if g := a.originAt(later.Exchange, later.Block); !g.unfinished {
					return g
				}
			}
		}
	}
	return f
}

// originAt is block p of exchange i's output.
func (a *analysis) originAt(i, p int) *source {
	ex := &a.tr.Exchanges[i]
	b := &outputOf(ex).Blocks[p]
	return &source{ex: i, pos: p, block: b, unfinished: isUnfinished(isPartial(ex), b)}
}

// sharesText reports whether m has a non-empty text block equal to one
// of out's.
func sharesText(m, out *traffic.Message) bool {
	if out == nil {
		return false
	}
	texts := map[string]bool{}
	for i := range out.Blocks {
		if b := &out.Blocks[i]; b.Type == traffic.BlockText && strings.TrimSpace(b.Text) != "" {
			texts[b.Text] = true
		}
	}
	for i := range m.Blocks {
		if b := &m.Blocks[i]; b.Type == traffic.BlockText && texts[b.Text] {
			return true
		}
	}
	return false
}

// each calls f for each Anthropic request judged, in order.
func (a *analysis) each(f func(i int, r *request)) {
	// A live judgement wants the last request's findings only: the ones
	// before it (a growing conversation's previous call, as long as it)
	// were judged when each was the last.
	a.walk(a.tr.WantedFrom(), f)
}

// eachAll is each for a check whose judgement of a request depends on the
// requests before it: one that judges each distinct thing once, at the
// first request that sends it, must see the earlier ones in a live
// judgement too.
func (a *analysis) eachAll(f func(i int, r *request)) { a.walk(a.tr.From, f) }

func (a *analysis) walk(start int, f func(i int, r *request)) {
	for i := start; i < len(a.tr.Exchanges); i++ {
		if r := a.req(i); r != nil {
			f(i, r)
		}
	}
}

// req is the Anthropic request of exchange i, or nil when there is none or
// it comes before the exchanges judged.
func (a *analysis) req(i int) *request {
	k := i - a.tr.From
	if k < 0 || k >= len(a.reqs) {
		return nil
	}
	return a.reqs[k]
}
