package thread

import (
	"slices"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

// Thread is one conversation of a cassette: the exchanges whose requests
// carry the same growing history.
type Thread struct {
	Wire traffic.Wire
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
func Threads(tr *check.Traffic) []Thread {
	a := Of(tr)
	out := make([]Thread, len(a.threads))
	for i, th := range a.threads {
		out[i] = Thread{Wire: th.Wire, Exchanges: slices.Clone(th.exchanges())}
	}
	return out
}

// Request is one request seen as head plus history.
type Request struct {
	ex   int // position in Traffic.Exchanges
	Wire traffic.Wire
	Req  *traffic.Request
	head uint64 // wire + system prompt
	// msgs is the history: the request's messages after the leading
	// system/developer ones, which belong to the head.
	Msgs  []traffic.Message
	Units []Unit
	// starts[m] is the index in units of message m's own unit.
	starts []int
	mfps   []uint64 // one fingerprint per message, folded from its units
	keys   []uint64 // prefixKeys, once worked out
	// grown is the request whose fingerprints r's extend in place (see
	// newRequest), until r's keys are worked out; taken says a later
	// request has extended r's in place: the room after them is its.
	grown *Request
	taken bool
	// kept is the print a linter kept of this very request, whose slices
	// r's are (clipped); nil otherwise. A request that extends r may
	// borrow its room (Prints.borrow).
	kept *keptPrint
	// rejected is true when the provider answered 4xx or 5xx: that history
	// never became conversation state.
	rejected bool
	Chained  bool   // previous_response_id set: the server holds the history
	RespID   string // the response's id, when it has one
	Thread   *histThread
}

// Unit is a message's own unit (block < 0) or one of its blocks.
type Unit struct {
	FP    uint64
	Msg   int32
	Block int32
}

func (u Unit) IsStart() bool { return u.Block < 0 }

// newRequest fingerprints the request of ex, found at position pos of
// traffic tr. When its history starts, in memory, with all of last's (the
// request fingerprinted before it: an traffic.Memo hands a growing
// conversation's requests one message list, extended), under the same
// head, it takes last's fingerprints as they are and works out only those
// of the messages after them, in the room after last's: a growing
// conversation is fingerprinted in time and memory linear in what it adds.
func newRequest(tr *check.Traffic, ex *traffic.Exchange, pos int, last *Request) *Request {
	req := ex.Request
	f := NewHasherWith(ex.Wire, printsOf(tr)) // HasherFor, kept off the heap
	r := &Request{ex: pos, Wire: ex.Wire, Req: req, rejected: ex.Status >= 400}
	r.Chained = req.PreviousResponseID != ""
	if ex.Response != nil {
		r.RespID = ex.Response.ID
	}
	var lead int
	r.head, lead = headOf(f, ex.Wire, req)
	r.Msgs = req.Messages[lead:]
	from := 0
	if last != nil && !last.taken && last.Wire == r.Wire && last.head == r.head && StartsWith(r.Msgs, last.Msgs) {
		last.taken = true
		r.grown = last
		from = len(last.Msgs)
		r.starts, r.mfps, r.Units = last.starts, last.mfps, last.Units
		if k := last.kept; k != nil && f.known.borrow(k) {
			// last's are a kept print's, clipped: with its room, r's
			// grow in place (the whole history is not copied).
			r.starts, r.mfps, r.Units = k.starts, k.mfps, k.units
		}
	} else if kept := f.known.printed(r.Wire, r.head, r.Msgs); kept != nil {
		// A call the linter added, fingerprinted then: its slices are
		// clipped, so that what is appended here goes to a copy.
		from = len(kept.msgs)
		r.starts, r.mfps, r.Units = clip(kept.starts), clip(kept.mfps), clip(kept.units)
		if from == len(r.Msgs) {
			r.kept = kept
		}
	} else {
		r.starts = make([]int, 0, len(r.Msgs))
		r.mfps = make([]uint64, 0, len(r.Msgs))
		n := len(r.Msgs)
		for i := range r.Msgs {
			n += len(r.Msgs[i].Blocks)
		}
		r.Units = make([]Unit, 0, n)
	}
	r.starts, r.mfps, r.Units = fingerprint(f, r.Msgs, from, r.starts, r.mfps, r.Units)
	return r
}

// headOf is the fingerprint of a request's head (its wire, its system
// prompt and the system or developer messages that open its history) and
// the number of those messages.
func headOf(f *Hasher, w traffic.Wire, req *traffic.Request) (uint64, int) {
	f.reset()
	f.str(string(w))
	head := f.sum()
	for i := range req.System {
		head = Mix(head, f.Block(&req.System[i]))
	}
	lead := Lead(req)
	for k := range lead {
		m := &req.Messages[k]
		head = Mix(head, f.Start(m))
		for i := range m.Blocks {
			head = Mix(head, f.Block(&m.Blocks[i]))
		}
	}
	return head, lead
}

// fingerprint appends to starts, mfps and units those of msgs from message
// from on: each message's start (its own unit) and blocks, and its
// fingerprint folded from them.
func fingerprint(f *Hasher, msgs []traffic.Message, from int, starts []int, mfps []uint64, units []Unit) ([]int, []uint64, []Unit) {
	for i := from; i < len(msgs); i++ {
		m := &msgs[i]
		starts = append(starts, len(units))
		fp := f.Start(m)
		units = append(units, Unit{FP: fp, Msg: int32(i), Block: -1})
		mfp := fp
		for j := range m.Blocks {
			bfp := f.Block(&m.Blocks[j])
			units = append(units, Unit{FP: bfp, Msg: int32(i), Block: int32(j)})
			mfp = Mix(mfp, bfp)
		}
		mfps = append(mfps, mfp)
	}
	return starts, mfps, units
}

func clip[T any](s []T) []T { return s[:len(s):len(s)] }

// StartsWith reports whether msgs starts, in memory, with all of prefix:
// the same messages, not equal ones (an traffic.Memo hands a growing
// conversation's requests one message list, extended).
func StartsWith(msgs, prefix []traffic.Message) bool {
	return len(prefix) > 0 && len(prefix) <= len(msgs) && &msgs[0] == &prefix[0]
}

// Lead is the number of system and developer messages that open req's
// messages: they belong to its head, the rest is its history.
func Lead(req *traffic.Request) int {
	lead := 0
	for lead < len(req.Messages) && isSystemRole(req.Messages[lead].Role) {
		lead++
	}
	return lead
}

func isSystemRole(r traffic.Role) bool { return r == traffic.RoleSystem || r == traffic.RoleDeveloper }

// message returns the message of unit i and its block (nil for a message's
// own unit).
func (r *Request) Message(i int) (*traffic.Message, *traffic.Block) {
	u := r.Units[i]
	m := &r.Msgs[u.Msg]
	if u.IsStart() {
		return m, nil
	}
	return m, &m.Blocks[u.Block]
}

// msgHead is the fingerprint threads are indexed by: a message's own unit
// and its first block, so a message that only gained or lost trailing
// blocks still finds its thread.
func (r *Request) msgHead(m int) uint64 {
	s := r.starts[m]
	h := Mix(r.head, r.Units[s].FP)
	if s+1 < len(r.Units) && int(r.Units[s+1].Msg) == m {
		h = Mix(h, r.Units[s+1].FP)
	}
	return h
}

// prefixKeys returns k[i] = the fingerprint of head + the first i messages.
func (r *Request) prefixKeys() []uint64 {
	if r.keys == nil {
		var k []uint64
		if g := r.grown; g != nil && g.keys != nil {
			k = g.keys // r's fingerprints extend g's in place: so do its keys
		} else {
			// With room for a few more turns: the next request of a
			// growing conversation extends these in place.
			k = append(make([]uint64, 0, len(r.mfps)+1+keysRoom), r.head)
		}
		for i := len(k) - 1; i < len(r.mfps); i++ {
			k = append(k, Mix(k[i], r.mfps[i]))
		}
		r.keys, r.grown = k, nil
	}
	return r.keys
}

// keysRoom is how many more prefix keys prefixKeys leaves room for.
const keysRoom = 8

// extends reports whether r's history starts with all of base's.
func (r *Request) extends(base *Request) bool {
	return len(base.mfps) <= len(r.mfps) && slices.Equal(base.mfps, r.mfps[:len(base.mfps)])
}

// histThread is a thread under construction.
type histThread struct {
	Wire   traffic.Wire
	Reqs   []*Request
	latest *Request // the latest request not chained by previous_response_id
	key    uint64   // prefix key of latest's whole history
	// ephemeral holds, by fingerprint, the content units some request of
	// the thread sent at its tail and its successor dropped.
	Ephemeral map[uint64]bool
}

func (t *histThread) exchanges() []int {
	out := make([]int, len(t.Reqs))
	for i, r := range t.Reqs {
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
	byKey   map[uint64]*histThread // prefix key of a thread's latest history
	byResp  map[string]*histThread
	// byHead maps a message head to the threads whose latest request holds
	// it, most recent last. Only a request that continues no thread by key
	// (an edit, a compaction, a new conversation) reads it, so the latest
	// requests' messages wait in unindexed, in order, until one does: a
	// growing conversation's long previous call, judged live, is never
	// indexed message by message.
	byHead    map[uint64][]*histThread
	unindexed []headsOf
	waiting   int // messages in unindexed
}

// headsOf is the messages of request r from from on, to index for th.
type headsOf struct {
	th   *histThread
	r    *Request
	from int
}

func newThreader() *threader {
	return &threader{byKey: map[uint64]*histThread{}} // byResp is made by its first entry
}

// add places r in a thread and returns it.
func (t *threader) add(r *Request) *histThread {
	th := t.find(r)
	if th == nil {
		th = &histThread{Wire: r.Wire}
		t.threads = append(t.threads, th)
	}
	th.Reqs = append(th.Reqs, r)
	r.Thread = th
	if r.RespID != "" {
		if t.byResp == nil {
			t.byResp = map[string]*histThread{}
		}
		t.byResp[r.RespID] = th
	}
	if !r.Chained {
		t.setLatest(th, r)
	}
	return th
}

func (t *threader) find(r *Request) *histThread {
	if r.Chained {
		if th := t.byResp[r.Req.PreviousResponseID]; th != nil && th.Wire == r.Wire {
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
func (t *threader) continued(r *Request) *histThread {
	t.indexHeads()
	if len(t.byHead) == 0 {
		return nil // no thread yet: the first request of a traffic
	}
	var cands []*histThread
	for m := range r.Msgs {
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

func (t *threader) setLatest(th *histThread, r *Request) {
	from := 0 // messages already indexed for th
	if th.latest != nil {
		if t.byKey[th.key] == th {
			delete(t.byKey, th.key)
		}
		if r.extends(th.latest) {
			from = len(th.latest.Msgs)
		}
	}
	keys := r.prefixKeys()
	th.latest, th.key = r, keys[len(keys)-1]
	t.byKey[th.key] = th
	t.unindexed = append(t.unindexed, headsOf{th, r, from})
	t.waiting += len(r.Msgs) - from
}

// indexHeads brings byHead up to date: the messages waiting are indexed in
// the order their requests became latest, as if each had been at once.
func (t *threader) indexHeads() {
	if t.waiting == 0 {
		t.unindexed = t.unindexed[:0] // nothing to index (a first request): byHead may stay nil
		return
	}
	if t.byHead == nil {
		t.byHead = make(map[uint64][]*histThread, t.waiting)
	}
	for _, w := range t.unindexed {
		for m := w.from; m < len(w.r.Msgs); m++ {
			h := w.r.msgHead(m)
			list := t.byHead[h]
			if i := slices.Index(list, w.th); i >= 0 {
				list = slices.Delete(list, i, i+1)
			}
			list = append(list, w.th)
			if len(list) > maxCandidates {
				list = list[len(list)-maxCandidates:]
			}
			t.byHead[h] = list
		}
	}
	t.unindexed, t.waiting = t.unindexed[:0], 0
}

// Of returns the threading analysis of tr, computed once per
// traffic: the HIST, EPH and other cross-turn families all need the threads,
// so the fingerprinting is paid once instead of once per check.
func Of(tr *check.Traffic) *Analysis { return check.Analysis(tr, "history", analyseHistory) }
