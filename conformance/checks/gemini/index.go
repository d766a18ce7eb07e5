package gemini

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/origin"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/gemini"
	"github.com/llmtck/llmtck/traffic"
)

// analysis is what the Gemini checks learn from one walk over the
// traffic. Every signed part of a recorded response is indexed by its
// decoded signature bytes, so an echo re-encoded in another base64 alphabet
// still finds its origin; every request is split into model turns (runs of
// consecutive model contents, as go-genai's chat echoes a stream one chunk
// per content), and each run is tied to the response it echoes. The walk
// visits each exchange once and looks origins up in maps, so the checks
// stay linear in the size of the traffic.
type analysis struct {
	reqs []*resolvedRequest // by exchange index; nil where there is no decoded Gemini request
}

// output is one model content a recorded response produced.
type output struct {
	ex      int
	msg     *traffic.Message
	partial bool         // the stream ended before this candidate's finishReason
	sigs    []*signature // per block: its signature, nil when it has none
	before  []int        // per block: how many functionCall blocks precede it
	calls   []int        // block indexes of the functionCall blocks
	names   []string     // their names
	text    string       // the non-thought text, joined
	blocks  []*source    // per block, for the signature index
}

// source is one block of a recorded response.
type source struct {
	out *output
	pos int // block index in out.msg
}

func (o *source) block() *traffic.Block { return &o.out.msg.Blocks[o.pos] }

// signature is a thoughtSignature token and what it decodes to.
type signature struct {
	raw   json.RawMessage
	bytes []byte // decoded; nil when the token is not base64
	err   error  // why it did not decode
	dummy bool   // one of the documented dummy signatures (G4)
	// key identifies the signature in the origin index (origin.Value): what
	// its base64 decodes to, in either alphabet.
	key string
}

// dummies are the signatures the thought-signature guide lets a client
// put on calls it wrote itself or imported from another model.
var dummies = []string{"context_engineering_is_the_way_to_go", "skip_thought_signature_validator"}

func newSignature(raw json.RawMessage) *signature {
	s := &signature{raw: raw}
	s.bytes, s.err = gemini.SignatureBytes(raw)
	s.key = origin.Value(raw)
	str, _ := rawjson.String(raw)
	for _, d := range dummies {
		if str == d || s.err == nil && string(s.bytes) == d {
			s.dummy = true
		}
	}
	return s
}

// requestPart is one part of a request's contents.
type requestPart struct {
	msg, pos int // content index, part index
	b        *traffic.Block
	run      *modelRun  // the model turn it belongs to; nil on the user side
	before   int        // functionCall parts before it in its run
	sig      *signature // its part-level signature; nil when it has none
	origin   *source    // the recorded part that produced sig, when indexed
	// counter is the index of the block of run.out this part echoes, or -1.
	counter int
}

// modelRun is a model turn of a request: consecutive model contents.
type modelRun struct {
	first, last int // content indexes
	current     bool
	parts       []*requestPart
	calls       []*requestPart
	// out is the recorded response content the run echoes: the origin of
	// one of its signatures, else the response to the latest earlier
	// request whose contents were exactly those before the run (when they
	// look alike). nil for a turn no recorded response produced.
	out *output
	// counterpart[k] is the part echoing out's block k, for its calls and
	// signed blocks; nil where the echo has none.
	counterpart []*requestPart
}

// resolvedRequest is one Gemini request with its model turns resolved.
type resolvedRequest struct {
	ex  *traffic.Exchange
	req *traffic.Request
	// enforcing: the model validates signatures of the current turn (G2).
	enforcing bool
	// turnStart is the last user content with ordinary content (not only
	// functionResponse parts): the start of the current turn; -1 if none.
	turnStart int
	runs      []*modelRun
	runOf     []int                     // per content: its run index, or -1
	signed    []*requestPart            // every part with a part-level signature, in order
	bySig     map[string][]*requestPart // signed parts by signature key; built by withSig
}

// withSig returns the request's parts that carry the signature key. The
// map is built on first use: clean traffic rarely needs it.
func (r *resolvedRequest) withSig(key string) []*requestPart {
	if r.bySig == nil {
		r.bySig = make(map[string][]*requestPart, len(r.signed))
		for _, p := range r.signed {
			r.bySig[p.sig.key] = append(r.bySig[p.sig.key], p)
		}
	}
	return r.bySig[key]
}

// analyze returns the analysis of tr, computed once per traffic: Judge
// runs the Gemini checks one after the other over the same Traffic.
func analyze(tr *check.Traffic) *analysis { return check.Analysis(tr, "gemini", newAnalysis) }

// index is the walk's state: what earlier responses produced.
type index struct {
	outputs [][]*output // by exchange: its candidates' contents
	origins *origin.Index
	// full maps the hash of a request's whole contents to the latest
	// exchange that sent them and got a model content back.
	full map[uint64]int
	// decoded caches each distinct token's decoding: a growing history
	// echoes every signature again in every request.
	decoded map[string]*signature
	h       *thread.Hasher // without payloads: a request's contents whatever its signatures
	// threads has every request's message fingerprints with payloads:
	// those of a message without any are the ones h gives. nil: none.
	threads *thread.Analysis
	// lastMsgs and lastPrefix are the latest request's contents and
	// their prefix hashes: a request that extends them in memory (a
	// growing conversation decoded through a memo) starts with the same.
	lastMsgs   []traffic.Message
	lastPrefix []uint64
}

// sig returns the decoded signature of a raw token.
func (x *index) sig(raw json.RawMessage) *signature {
	if s, ok := x.decoded[string(raw)]; ok {
		return s
	}
	s := newSignature(raw)
	x.decoded[string(raw)] = s
	return s
}

func newAnalysis(tr *check.Traffic) *analysis {
	g := &analysis{reqs: make([]*resolvedRequest, len(tr.Exchanges))}
	x := &index{
		outputs: make([][]*output, len(tr.Exchanges)),
		origins: origin.Of(tr),
		full:    map[uint64]int{},
		decoded: map[string]*signature{},
		h:       thread.HasherFor(tr, traffic.WireGemini).WithoutPayloads(),
		threads: thread.Of(tr),
	}
	for i := tr.From; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.Wire != traffic.WireGemini {
			continue
		}
		var whole uint64
		switch {
		case ex.Request == nil:
		case tr.Latest && i == tr.From && i < len(tr.Exchanges)-1:
			// A live judgement keeps the last request's findings only, and
			// the first request judged echoes nothing the traffic holds (its
			// origins come before it): its parts cannot make a finding of
			// the last one a repeat (reportedFaults). Its hashes are enough: the
			// last request may extend it, or echo its answer.
			whole = x.hash(i, ex.Request)[len(ex.Request.Messages)]
		default:
			g.reqs[i], whole = x.request(i, ex)
		}
		x.outputs[i] = x.response(ex)
		if ex.Request != nil && x.first(i) != nil {
			x.full[whole] = i
		}
	}
	return g
}

// response describes the model contents of ex's response, one per
// candidate; nil when there is none.
func (x *index) response(ex *traffic.Exchange) []*output {
	resp := ex.Response
	if resp == nil || len(resp.Output) == 0 {
		return nil
	}
	outs := make([]*output, len(resp.Output))
	for k := range resp.Output {
		o := x.newOutput(ex.Index, &resp.Output[k])
		if st := resp.Stream; st != nil {
			o.partial = !st.Complete || slices.Contains(st.Partial, k)
		}
		outs[k] = o
	}
	return outs
}

// first is the first candidate's content of exchange e's response, or nil.
func (x *index) first(e int) *output {
	if len(x.outputs[e]) == 0 {
		return nil
	}
	return x.outputs[e][0]
}

// signed is the recorded part that carried signature s latest in a
// response before exchange before, or nil.
func (x *index) signed(s *signature, before int) *source {
	if s.dummy {
		return nil
	}
	o, ok := x.origins.Last(traffic.WireGemini, origin.PayloadValue, s.key, before)
	if !ok || o.Output >= len(x.outputs[o.Exchange]) {
		return nil
	}
	return x.outputs[o.Exchange][o.Output].blocks[o.Block]
}

func (x *index) newOutput(ex int, m *traffic.Message) *output {
	n := len(m.Blocks)
	o := &output{ex: ex, msg: m, sigs: make([]*signature, n), before: make([]int, n), blocks: make([]*source, n)}
	calls := 0
	var text strings.Builder
	for j := range m.Blocks {
		b := &m.Blocks[j]
		o.before[j] = calls
		o.blocks[j] = &source{out: o, pos: j}
		if b.Signature != nil {
			o.sigs[j] = x.sig(b.Signature)
		}
		switch {
		case b.Type == traffic.BlockToolCall:
			calls++
			o.calls = append(o.calls, j)
			o.names = append(o.names, b.Name)
		case b.Type == traffic.BlockText:
			text.WriteString(b.Text)
		}
	}
	o.text = text.String()
	return o
}

// request analyses the request of exchange at against the index and returns it with the
// hash of its whole contents.
func (x *index) request(at int, ex *traffic.Exchange) (*resolvedRequest, uint64) {
	req := ex.Request
	r := &resolvedRequest{ex: ex, req: req, enforcing: isEnforcing(req.Model), turnStart: -1,
		runOf: make([]int, len(req.Messages))}
	prefix := x.hash(at, req)
	for i := range req.Messages {
		if m := &req.Messages[i]; m.Role != traffic.RoleAssistant && ordinary(m) {
			r.turnStart = i
		}
	}
	// Count what is kept below, to allocate each kind once: a long
	// history holds hundreds of model turns.
	n, nRuns, nInRuns := 0, 0, 0 // parts (a long history's user side holds most), runs, parts in runs
	for i := range req.Messages {
		m := &req.Messages[i]
		model := m.Role == traffic.RoleAssistant
		if model && (i == 0 || req.Messages[i-1].Role != traffic.RoleAssistant) {
			nRuns++
		}
		for j := range m.Blocks {
			if model || m.Blocks[j].Signature != nil {
				n++
			}
			if model {
				nInRuns++
			}
		}
	}
	// Pointers into these stay valid: they never grow past their size.
	parts := make([]requestPart, 0, n)
	runs := make([]modelRun, 0, nRuns)
	inRuns := make([]*requestPart, 0, nInRuns) // each run's parts, run after run
	r.runs = make([]*modelRun, 0, nRuns)
	var run *modelRun
	runFrom := 0 // where run's parts begin in inRuns
	for i := range req.Messages {
		m := &req.Messages[i]
		r.runOf[i] = -1
		if m.Role != traffic.RoleAssistant {
			run = nil
		} else {
			if run == nil {
				runs = append(runs, modelRun{first: i, current: i > r.turnStart})
				run = &runs[len(runs)-1]
				r.runs = append(r.runs, run)
				runFrom = len(inRuns)
			}
			run.last = i
			r.runOf[i] = len(r.runs) - 1
		}
		for j := range m.Blocks {
			b := &m.Blocks[j]
			if run == nil && b.Signature == nil {
				continue // an unsigned user-side part: nothing to judge
			}
			parts = append(parts, requestPart{msg: i, pos: j, b: b, run: run, counter: -1})
			p := &parts[len(parts)-1]
			if b.Signature != nil {
				p.sig = x.sig(b.Signature)
				p.origin = x.signed(p.sig, at)
				r.signed = append(r.signed, p)
			}
			if run != nil {
				p.before = len(run.calls)
				inRuns = append(inRuns, p)
				run.parts = inRuns[runFrom:len(inRuns):len(inRuns)]
				if b.Type == traffic.BlockToolCall {
					run.calls = append(run.calls, p)
				}
			}
		}
	}
	for _, run := range r.runs {
		x.bind(run, prefix[run.first])
	}
	return r, prefix[len(req.Messages)]
}

// hash returns the prefix hashes of req, the request of exchange at:
// prefix[k] hashes contents[:k], whatever their signatures. A request that
// extends the one hashed before in memory takes over its hashes, and a
// content without signatures takes the fingerprint threading gave it.
func (x *index) hash(at int, req *traffic.Request) []uint64 {
	prefix := make([]uint64, len(req.Messages)+1)
	hashed := 0
	if thread.StartsWith(req.Messages, x.lastMsgs) {
		hashed = copy(prefix, x.lastPrefix) - 1
	}
	x.lastMsgs, x.lastPrefix = req.Messages, prefix
	var known []uint64 // of the contents after the lead
	if x.threads != nil {
		known = x.threads.MessagePrints(at)
	}
	lead := len(req.Messages) - len(known)
	for i := hashed; i < len(req.Messages); i++ {
		m := &req.Messages[i]
		var fp uint64
		if i >= lead && !thread.HasPayload(m) {
			fp = known[i-lead]
		} else {
			fp = x.h.Message(m)
		}
		prefix[i+1] = thread.Mix(prefix[i], fp)
	}
	return prefix
}

// bind ties a run to the response content it echoes and pairs its parts
// with that content's blocks.
func (x *index) bind(run *modelRun, before uint64) {
	for _, p := range run.parts {
		if p.origin != nil {
			run.out = p.origin.out
			break
		}
	}
	if run.out == nil {
		if e, ok := x.full[before]; ok && x.first(e) != nil && alike(run, x.first(e)) {
			run.out = x.first(e)
		}
	}
	if run.out != nil {
		pair(run)
	}
}

// alike reports whether a run looks like an echo of out: a call of the
// same name, or the same text. A client that rewrote the model's answer
// sent something else, and its signatures are not judged as echoes.
func alike(run *modelRun, out *output) bool {
	for _, p := range run.calls {
		if slices.Contains(out.names, p.b.Name) {
			return true
		}
	}
	text := ""
	for _, p := range run.parts {
		if p.b.Type == traffic.BlockText {
			text += p.b.Text
		}
	}
	return text != "" && text == out.text
}

// pair pairs the run's parts with the blocks of run.out: calls in order
// by name, and each signed non-call block with the first unpaired part of
// the same kind and text that follows as many calls.
func pair(run *modelRun) {
	out := run.out
	run.counterpart = make([]*requestPart, len(out.msg.Blocks))
	cursor := 0
	for _, k := range out.calls {
		name := out.msg.Blocks[k].Name
		for c := cursor; c < len(run.calls); c++ {
			if run.calls[c].b.Name == name {
				run.counterpart[k], run.calls[c].counter = run.calls[c], k
				cursor = c + 1
				break
			}
		}
	}
	for k := range out.msg.Blocks {
		b := &out.msg.Blocks[k]
		if out.sigs[k] == nil || b.Type == traffic.BlockToolCall {
			continue
		}
		for _, p := range run.parts {
			if p.counter < 0 && p.before == out.before[k] && samePart(b, p.b) {
				run.counterpart[k], p.counter = p, k
				break
			}
		}
	}
}

// partKind classes a part for comparisons.
type partKind int

const (
	kindOther partKind = iota
	kindCall
	kindResult
	kindText
	kindThought
	kindEmpty // a text or thought part with empty text, or a signature-only part
)

func kindOf(b *traffic.Block) partKind {
	switch b.Type {
	case traffic.BlockToolCall:
		return kindCall
	case traffic.BlockToolResult:
		return kindResult
	case traffic.BlockText, traffic.BlockThinking:
		switch {
		case b.Text == "":
			return kindEmpty
		case b.Type == traffic.BlockThinking:
			return kindThought
		}
		return kindText
	}
	return kindOther
}

// samePart reports whether an echoed non-call part stands for the
// recorded one: same kind and same text.
func samePart(rec, echo *traffic.Block) bool {
	k := kindOf(rec)
	if k != kindOf(echo) {
		return false
	}
	if k == kindOther {
		return rec.Type == echo.Type && rec.WireType == echo.WireType
	}
	return rec.Text == echo.Text
}

// ordinary reports whether a user-side content carries something other
// than function responses: it then opens a new turn (G2).
func ordinary(m *traffic.Message) bool {
	for i := range m.Blocks {
		if m.Blocks[i].Type != traffic.BlockToolResult {
			return true
		}
	}
	return false
}

// isEnforcing reports whether the model validates the signatures of the
// current turn. Gemini 3 does (G2); 2.5 and older, Gemma, and Gemini 3 Pro
// Image do not, so there a missing or wrong signature degrades answers
// instead of failing the request. The moving "-latest" aliases point at
// current models and count as enforcing; a name that says nothing (no
// model in the URL) does not, to raise no error that the model may not.
func isEnforcing(model string) bool {
	m := model[strings.LastIndexByte(model, '/')+1:]
	rest, ok := strings.CutPrefix(m, "gemini-")
	if !ok || strings.Contains(m, "-image") {
		return false
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 {
		return strings.HasSuffix(rest, "-latest")
	}
	major, _ := strconv.Atoi(rest[:n])
	return major >= 3
}
