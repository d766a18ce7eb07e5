package conformance

import (
	"slices"

	"github.com/llmtck/llmtck/engine"
)

// Thread is one conversation of a cassette: the exchanges whose requests
// carry the same growing history.
type Thread struct {
	Wire engine.Wire
	// Exchanges are indexes into Traffic.Exchanges, in order.
	Exchanges []int
}

// Threads splits the traffic into conversations, so that cross-turn checks
// judge each request against the earlier requests and responses of its own
// conversation. A cassette interleaves several: sub-agents, title
// generation, retries, independent test calls.
//
// A request's head is its wire plus its system prompt: the top-level system
// (Anthropic system, Responses instructions, Gemini systemInstruction) and
// the system or developer messages that open the history. The rest is its
// history. Requests join threads in cassette order; a request joins
//
//  1. the thread of the response its previous_response_id names (Responses);
//  2. else the thread, of the same head, whose latest request's history is
//     the longest prefix of its own: an append-only step, or a retry when
//     the histories are equal;
//  3. else the thread, of the same head, whose latest request it continues
//     with edits best (most blocks kept, the most recent on a tie): it keeps
//     at least one content block of that history, and no more blocks were
//     removed than kept — counting neither user content dropped from the
//     tail (ephemeral content) nor a prefix replaced by a summary or dropped
//     (compaction: at least two messages, or one without a summary in its
//     place, with the rest kept);
//  4. else it starts a new thread.
//
// Histories are compared through fingerprints of messages and blocks (role
// and canonical content, without paths or cache_control), so threading is
// linear in the size of the traffic. Exchanges without a decoded request
// (response-only recordings, unknown wires, bodies that did not decode)
// belong to no thread.
func Threads(tr *Traffic) []Thread {
	a := historyOf(tr)
	out := make([]Thread, len(a.threads))
	for i, th := range a.threads {
		out[i] = Thread{Wire: th.wire, Exchanges: slices.Clone(th.exchanges())}
	}
	return out
}

// histRequest is one request seen as head plus history.
type histRequest struct {
	ex   int // position in Traffic.Exchanges
	wire engine.Wire
	req  *engine.Request
	head uint64 // wire + system prompt
	// msgs is the history: the request's messages after the leading
	// system/developer ones, which belong to the head.
	msgs  []engine.Message
	units []histUnit
	// starts[m] is the index in units of message m's own unit.
	starts []int
	mfps   []uint64 // one fingerprint per message, folded from its units
	// rejected is true when the provider answered 4xx or 5xx: that history
	// never became conversation state.
	rejected bool
	chained  bool   // previous_response_id set: the server holds the history
	respID   string // the response's id, when it has one
	thread   *histThread
}

// histUnit is a message's own unit (block < 0) or one of its blocks.
type histUnit struct {
	fp    uint64
	msg   int32
	block int32
}

func (u histUnit) isStart() bool { return u.block < 0 }

// newHistRequest fingerprints the request of ex, found at position pos of
// the traffic.
func newHistRequest(ex *engine.Exchange, pos int) *histRequest {
	req := ex.Request
	f := newFingerprinter(ex.Wire)
	r := &histRequest{ex: pos, wire: ex.Wire, req: req, rejected: ex.Status >= 400}
	r.chained = req.PreviousResponseID != ""
	if ex.Response != nil {
		r.respID = ex.Response.ID
	}
	f.reset()
	f.str(string(ex.Wire))
	head := f.sum()
	for i := range req.System {
		head = mix(head, f.blockFP(&req.System[i]))
	}
	lead := 0
	for lead < len(req.Messages) && isSystemRole(req.Messages[lead].Role) {
		m := &req.Messages[lead]
		head = mix(head, f.startFP(m))
		for i := range m.Blocks {
			head = mix(head, f.blockFP(&m.Blocks[i]))
		}
		lead++
	}
	r.head = head
	r.msgs = req.Messages[lead:]
	r.starts = make([]int, len(r.msgs))
	r.mfps = make([]uint64, len(r.msgs))
	n := len(r.msgs)
	for i := range r.msgs {
		n += len(r.msgs[i].Blocks)
	}
	r.units = make([]histUnit, 0, n)
	for i := range r.msgs {
		m := &r.msgs[i]
		r.starts[i] = len(r.units)
		fp := f.startFP(m)
		r.units = append(r.units, histUnit{fp: fp, msg: int32(i), block: -1})
		mfp := fp
		for j := range m.Blocks {
			bfp := f.blockFP(&m.Blocks[j])
			r.units = append(r.units, histUnit{fp: bfp, msg: int32(i), block: int32(j)})
			mfp = mix(mfp, bfp)
		}
		r.mfps[i] = mfp
	}
	return r
}

func isSystemRole(r engine.Role) bool { return r == engine.RoleSystem || r == engine.RoleDeveloper }

// message returns the message of unit i and its block (nil for a message's
// own unit).
func (r *histRequest) message(i int) (*engine.Message, *engine.Block) {
	u := r.units[i]
	m := &r.msgs[u.msg]
	if u.isStart() {
		return m, nil
	}
	return m, &m.Blocks[u.block]
}

// msgHead is the fingerprint threads are indexed by: a message's own unit
// and its first block, so a message that only gained or lost trailing
// blocks still finds its thread.
func (r *histRequest) msgHead(m int) uint64 {
	s := r.starts[m]
	h := mix(r.head, r.units[s].fp)
	if s+1 < len(r.units) && int(r.units[s+1].msg) == m {
		h = mix(h, r.units[s+1].fp)
	}
	return h
}

// prefixKeys returns k[i] = the fingerprint of head + the first i messages.
func (r *histRequest) prefixKeys() []uint64 {
	k := make([]uint64, len(r.mfps)+1)
	k[0] = r.head
	for i, fp := range r.mfps {
		k[i+1] = mix(k[i], fp)
	}
	return k
}

// extends reports whether r's history starts with all of base's.
func (r *histRequest) extends(base *histRequest) bool {
	return len(base.mfps) <= len(r.mfps) && slices.Equal(base.mfps, r.mfps[:len(base.mfps)])
}

// histThread is a thread under construction.
type histThread struct {
	wire   engine.Wire
	reqs   []*histRequest
	latest *histRequest // the latest request not chained by previous_response_id
	key    uint64       // prefix key of latest's whole history
	// ephemeral holds, by fingerprint, the content units some request of
	// the thread sent at its tail and its successor dropped.
	ephemeral map[uint64]bool
}

func (t *histThread) exchanges() []int {
	out := make([]int, len(t.reqs))
	for i, r := range t.reqs {
		out[i] = r.ex
	}
	return out
}

// maxCandidates bounds how many threads an edited request is compared with,
// so threading stays linear however many conversations share an opening.
const maxCandidates = 8

// threader assigns requests to threads (the rule is in Threads' comment).
type threader struct {
	threads []*histThread
	byKey   map[uint64]*histThread   // prefix key of a thread's latest history
	byHead  map[uint64][]*histThread // message head → threads whose latest holds it, most recent last
	byResp  map[string]*histThread
}

func newThreader() *threader {
	return &threader{
		byKey:  map[uint64]*histThread{},
		byHead: map[uint64][]*histThread{},
		byResp: map[string]*histThread{},
	}
}

// add places r in a thread and returns it.
func (t *threader) add(r *histRequest) *histThread {
	th := t.find(r)
	if th == nil {
		th = &histThread{wire: r.wire}
		t.threads = append(t.threads, th)
	}
	th.reqs = append(th.reqs, r)
	r.thread = th
	if r.respID != "" {
		t.byResp[r.respID] = th
	}
	if !r.chained {
		t.setLatest(th, r)
	}
	return th
}

func (t *threader) find(r *histRequest) *histThread {
	if r.chained {
		if th := t.byResp[r.req.PreviousResponseID]; th != nil && th.wire == r.wire {
			return th
		}
	}
	keys := r.prefixKeys()
	for i := len(keys) - 1; i >= 0; i-- {
		if i == 0 && len(keys) > 1 {
			break // sharing only the head is no evidence of one conversation
		}
		if th := t.byKey[keys[i]]; th != nil {
			return th
		}
	}
	return t.continued(r)
}

// continued returns the thread whose latest request r continues best with
// edits, ephemeral content dropped or a compaction: most blocks kept, the
// most recent thread on a tie.
func (t *threader) continued(r *histRequest) *histThread {
	var cands []*histThread
	for m := range r.msgs {
		for _, th := range t.byHead[r.msgHead(m)] {
			if !slices.Contains(cands, th) {
				cands = append(cands, th)
			}
		}
	}
	slices.SortFunc(cands, func(a, b *histThread) int { return b.latest.ex - a.latest.ex })
	if len(cands) > maxCandidates {
		cands = cands[:maxCandidates]
	}
	var best *histThread
	bestKept := 0
	for _, th := range cands {
		d := diffHistory(th.latest, r)
		if d.continues() && d.kept > bestKept {
			best, bestKept = th, d.kept
		}
	}
	return best
}

func (t *threader) setLatest(th *histThread, r *histRequest) {
	from := 0 // messages already indexed for th
	if th.latest != nil {
		if t.byKey[th.key] == th {
			delete(t.byKey, th.key)
		}
		if r.extends(th.latest) {
			from = len(th.latest.msgs)
		}
	}
	keys := r.prefixKeys()
	th.latest, th.key = r, keys[len(keys)-1]
	t.byKey[th.key] = th
	for m := from; m < len(r.msgs); m++ {
		h := r.msgHead(m)
		list := t.byHead[h]
		if i := slices.Index(list, th); i >= 0 {
			list = slices.Delete(list, i, i+1)
		}
		list = append(list, th)
		if len(list) > maxCandidates {
			list = list[len(list)-maxCandidates:]
		}
		t.byHead[h] = list
	}
}

// historyOf returns the threading analysis of tr, computed once per
// traffic: the HIST, EPH and other cross-turn families all need the threads,
// so the fingerprinting is paid once instead of once per check.
func historyOf(tr *Traffic) *histAnalysis { return analysis(tr, "history", analyseHistory) }
