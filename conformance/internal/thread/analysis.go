package thread

import (
	"fmt"
	"iter"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/show"
	"github.com/llmtck/llmtck/providers/responses"
	"github.com/llmtck/llmtck/traffic"
)

// Analysis is what threading learns about one traffic: the threads, the
// findings of the HIST family, and the ephemeral content each request sent.
type Analysis struct {
	tr      *check.Traffic
	threads []*histThread
	// reqs holds the request of exchange tr.From+k at k: the judged ones
	// only, so a judgement of the latest call over a long history does
	// not pay for a slot per earlier call.
	reqs []*Request
	// Notes are the HIST findings by check ID; nil when there are none.
	Notes map[string][]Note
	// Eph lists, by exchange position, the request's content that its
	// successor in the thread no longer carries; nil when there is none.
	Eph map[int][]EphemeralUnit
}

// MessagePrints is the fingerprint of each message of request i after its
// lead (Lead), as Hasher.Message works it out on the request's wire, or nil
// when request i is not threaded. Its analysis has worked them out already.
func (a *Analysis) MessagePrints(i int) []uint64 {
	r := a.Req(i)
	if r == nil {
		return nil
	}
	return r.mfps[:len(r.Msgs):len(r.Msgs)] // a grown request shares the array
}

// Req is the request of exchange i, or nil when it is not threaded or
// comes before the exchanges judged (Traffic.From).
func (a *Analysis) Req(i int) *Request {
	k := i - a.tr.From
	if k < 0 || k >= len(a.reqs) {
		return nil
	}
	return a.reqs[k]
}

// Requests yields each threaded request with its exchange position, in
// exchange order.
func (a *Analysis) Requests() iter.Seq2[int, *Request] {
	return func(yield func(int, *Request) bool) {
		for k, r := range a.reqs {
			if r != nil && !yield(a.tr.From+k, r) {
				return
			}
		}
	}
}

// Note is a finding waiting for its check's reporter.
type Note struct {
	Sev         check.Severity // "" means the check's own severity
	Interaction int
	Location    string
	Message     string
	Diff        string
}

// EphemeralUnit is one unit of ephemeral content: sent in req, gone from the next
// request of its thread.
type EphemeralUnit struct {
	Req  *Request
	Unit int
	Tail bool // at the tail of req, where ephemeral content is allowed
}

func analyseHistory(tr *check.Traffic) *Analysis {
	// Notes and Eph are made by their first entry: most judgements have none.
	a := &Analysis{tr: tr, reqs: make([]*Request, len(tr.Exchanges)-tr.From)}
	t := newThreader()
	var last *Request
	for i := tr.From; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.Request == nil || ex.Wire == traffic.WireUnknown || ex.Wire == "" {
			continue
		}
		r := newRequest(tr, ex, i, last)
		a.reqs[i-tr.From] = r
		t.add(r)
		last = r
	}
	a.threads = t.threads
	for _, th := range a.threads {
		a.judgeThread(th)
	}
	return a
}

// judgeThread compares each request with its base: the latest earlier
// request of the thread the provider did not reject (a rejected request
// never became conversation state, so repairing it is no edit), or the
// previous one when all were rejected. Ephemeral content is read against
// the previous request, rejected or not. Requests chained by
// previous_response_id are not compared: the server holds their history.
func (a *Analysis) judgeThread(th *histThread) {
	var prev, base *Request
	for _, r := range th.Reqs {
		if r.Chained {
			continue
		}
		if prev != nil {
			b := base
			if b == nil {
				b = prev
			}
			var d *histDiff
			if !r.extends(b) {
				d = diffHistory(b, r)
				a.judgeStep(d)
			}
			if !r.extends(prev) {
				if prev != b || d == nil {
					d = diffHistory(prev, r)
				}
				a.recordEphemeral(d)
			}
		}
		prev = r
		if !r.rejected {
			base = r
		}
	}
}

func (a *Analysis) note(check string, sev check.Severity, r *Request, location, diff, format string, args ...any) {
	if a.Notes == nil {
		a.Notes = map[string][]Note{}
	}
	a.Notes[check] = append(a.Notes[check], Note{Sev: sev, Interaction: a.tr.Exchanges[r.ex].Index,
		Location: location, Message: fmt.Sprintf(format, args...), Diff: diff})
}

// recordEphemeral remembers the user content blocks d.base sent that d.Req
// dropped (a compaction's summarised prefix aside).
func (a *Analysis) recordEphemeral(d *histDiff) {
	for i, j := range d.match {
		if j >= 0 || d.base.Units[i].IsStart() || !ephemeralShaped(d.base, i) {
			continue
		}
		if d.compaction && i < d.firstKept {
			continue // summarised, not ephemeral
		}
		e := EphemeralUnit{Req: d.base, Unit: i, Tail: i > d.lastKept}
		if a.Eph == nil {
			a.Eph = map[int][]EphemeralUnit{}
		}
		a.Eph[d.base.ex] = append(a.Eph[d.base.ex], e)
		if !e.Tail {
			continue // an edit: HIST-001 and the prefix checks judge it
		}
		th := d.base.Thread
		if th.Ephemeral == nil {
			th.Ephemeral = map[uint64]bool{}
		}
		th.Ephemeral[d.base.Units[i].FP] = true
	}
}

// judgeStep reports how d.Req departs from appending to d.base's history.
func (a *Analysis) judgeStep(d *histDiff) {
	if d.appendOnly() {
		return // the base's last message only gained blocks
	}
	diff := editDiff(d)
	r, base := d.Req, d.base
	baseEx := a.tr.Exchanges[base.ex].Index
	broken := a.brokenPairs(d, diff)
	if d.compaction {
		dropped := 0
		for i := 0; i < d.firstKept; i++ {
			if _, b := base.Message(i); b != nil && b.Signed() {
				dropped++
			}
		}
		also := ""
		if dropped > 0 {
			also = fmt.Sprintf("; %d signed block(s) went with them, and blocks kept after the summary now follow a different prefix", dropped)
		}
		what := fmt.Sprintf("replaced by a %d-message summary", d.summaryMsgs)
		if d.summaryMsgs == 0 {
			what = "dropped without a summary"
		}
		a.note("HIST-004", "", r, "request."+r.Msgs[0].Path, diff,
			"compaction: the first %d history messages of interaction %d's request are %s; the system prompt and the later history are kept%s",
			d.droppedMsgs, baseEx, what, also)
		return
	}
	if broken+a.droppedSigned(d, diff) > 0 {
		return // the edit is shown there
	}
	what := describeEdit(d)
	if what == "" {
		return
	}
	a.note("HIST-001", "", r, editLocation(d, firstEdit(d)), diff,
		"history of interaction %d's request edited, not appended to: %s", baseEx, what)
}

// firstEdit is the first base unit removed before the tail, or the first of
// a disallowed tail, or len(units) when only insertions changed.
func firstEdit(d *histDiff) int {
	tail := d.tailAllowed()
	for i, j := range d.match {
		if j < 0 && (i < d.lastKept || !tail) {
			return i
		}
	}
	return len(d.base.Units)
}

// editLocation is where, in the request, base unit i was or would be: its
// message when that is kept, else the message holding the next kept unit,
// else the first inserted unit, else the last message.
func editLocation(d *histDiff, i int) string {
	r := d.Req
	if i < len(d.base.Units) {
		s := d.base.starts[d.base.Units[i].Msg]
		if j := d.match[s]; j >= 0 {
			return "request." + r.Msgs[r.Units[j].Msg].Path
		}
		for k := i + 1; k < len(d.match); k++ {
			if j := d.match[k]; j >= 0 {
				return "request." + r.Msgs[r.Units[j].Msg].Path
			}
		}
	}
	if ins := d.inserted(); len(ins) > 0 {
		return "request." + r.Msgs[r.Units[ins[0]].Msg].Path
	}
	if len(r.Msgs) == 0 {
		return "request"
	}
	return "request." + r.Msgs[len(r.Msgs)-1].Path
}

// describeEdit lists the base messages removed or changed (before the tail,
// or in a tail that is not ephemeral) and the request messages inserted.
func describeEdit(d *histDiff) string {
	base, r := d.base, d.Req
	tail := d.tailAllowed()
	var items []string
	for m := range base.Msgs {
		lo, hi := base.starts[m], len(base.Units)
		if m+1 < len(base.Msgs) {
			hi = base.starts[m+1]
		}
		gone, all := 0, hi-lo
		for i := lo; i < hi; i++ {
			if d.match[i] < 0 && (i < d.lastKept || !tail) {
				gone++
			}
		}
		switch {
		case gone == 0:
		case gone == all:
			items = append(items, fmt.Sprintf("removed %s (%s)", base.Msgs[m].Path, base.Msgs[m].Role))
		default:
			items = append(items, fmt.Sprintf("changed %s (%s)", base.Msgs[m].Path, base.Msgs[m].Role))
		}
	}
	seen := map[int32]bool{} // request messages already named
	for m := range base.Msgs {
		if j := d.match[base.starts[m]]; j >= 0 && describedChanged(d, m, tail) {
			seen[r.Units[j].Msg] = true
		}
	}
	for _, j := range d.inserted() {
		m := r.Units[j].Msg
		if seen[m] {
			continue
		}
		seen[m] = true
		verb := "inserted"
		if d.matchedStart(m) {
			verb = "new content in"
		}
		items = append(items, fmt.Sprintf("%s %s (%s) of this request", verb, r.Msgs[m].Path, r.Msgs[m].Role))
	}
	const most = 4
	if len(items) > most {
		items = append(items[:most], fmt.Sprintf("and %d more", len(items)-most))
	}
	return strings.Join(items, "; ")
}

// describedChanged reports whether describeEdit names base message m as
// changed: some but not all of its units gone.
func describedChanged(d *histDiff, m int, tail bool) bool {
	lo, hi := d.base.starts[m], len(d.base.Units)
	if m+1 < len(d.base.Msgs) {
		hi = d.base.starts[m+1]
	}
	gone := 0
	for i := lo; i < hi; i++ {
		if d.match[i] < 0 && (i < d.lastKept || !tail) {
			gone++
		}
	}
	return gone > 0 && gone < hi-lo
}

// matchedStart reports whether request message m's own unit is matched by a
// base unit.
func (d *histDiff) matchedStart(m int32) bool {
	s := d.Req.starts[m]
	for _, j := range d.match {
		if j == s {
			return true
		}
	}
	return false
}

// brokenPairs reports (HIST-002) tool calls kept without their results, or
// results kept without their calls, because the edit removed the other half.
func (a *Analysis) brokenPairs(d *histDiff, diff string) int {
	base, r := d.base, d.Req
	bKeys := pairKeys(base)
	calls, results := map[string]string{}, map[string]string{}
	for j, k := range pairKeys(r) {
		_, b := r.Message(j)
		if b.Type == traffic.BlockToolCall {
			calls[k] = b.Path
		} else {
			results[k] = b.Path
		}
	}
	n := 0
	done := map[string]bool{}
	baseEx := a.tr.Exchanges[base.ex].Index
	for i, k := range bKeys {
		if d.match[i] >= 0 || done[k] {
			continue
		}
		_, b := base.Message(i)
		if b.Type == traffic.BlockToolCall {
			if p, ok := results[k]; ok && calls[k] == "" {
				done[k] = true
				n++
				a.note("HIST-002", "", r, "request."+p, diff,
					"tool call %s (%s in interaction %d's request) was removed but its result is kept here",
					pairName(b), b.Path, baseEx)
			}
		} else if p, ok := calls[k]; ok && results[k] == "" {
			done[k] = true
			n++
			a.note("HIST-002", "", r, "request."+p, diff,
				"the result of tool call %s (%s in interaction %d's request) was removed but the call is kept here",
				pairName(b), b.Path, baseEx)
		}
	}
	return n
}

func pairName(b *traffic.Block) string {
	switch {
	case b.ID != "":
		return b.ID
	case b.ToolCallID != "":
		return b.ToolCallID
	}
	return b.Name
}

// pairKeys names each tool call and tool result unit of r by the key that
// pairs them: the call id, or for id-less calls (Gemini) the name and how
// many id-less calls of that name came before.
func pairKeys(r *Request) map[int]string {
	out := map[int]string{}
	calls, results := map[string]int{}, map[string]int{}
	for i := range r.Units {
		_, b := r.Message(i)
		if b == nil {
			continue
		}
		switch b.Type {
		case traffic.BlockToolCall:
			if b.ID != "" {
				out[i] = "id:" + b.ID
			} else {
				out[i] = fmt.Sprintf("name:%s#%d", b.Name, calls[b.Name])
				calls[b.Name]++
			}
		case traffic.BlockToolResult:
			if b.ToolCallID != "" {
				out[i] = "id:" + b.ToolCallID
			} else {
				out[i] = fmt.Sprintf("name:%s#%d", b.Name, results[b.Name])
				results[b.Name]++
			}
		}
	}
	return out
}

// droppedSigned reports (HIST-003) signed blocks removed while later history
// is kept, at error where the provider rejects the result and at warning
// where it only degrades, and returns how many.
func (a *Analysis) droppedSigned(d *histDiff, diff string) int {
	base, r := d.base, d.Req
	baseEx := a.tr.Exchanges[base.ex].Index
	n := 0
	for i := 0; i < d.lastKept; i++ {
		if d.match[i] >= 0 {
			continue
		}
		m, b := base.Message(i)
		if b == nil || !b.Signed() {
			continue
		}
		sev, why := signedDropSeverity(d, i, m, b)
		n++
		a.note("HIST-003", sev, r, editLocation(d, i), diff,
			"%s at %s of interaction %d's request is gone while later history is kept: %s",
			show.Block(base.Wire, b), b.Path, baseEx, why)
	}
	return n
}

// signedDropSeverity says what removing signed block b (unit i, in message
// m of the base) costs on its wire.
func signedDropSeverity(d *histDiff, i int, m *traffic.Message, b *traffic.Block) (check.Severity, string) {
	switch d.base.Wire {
	case traffic.WireResponses:
		next := int(d.base.Units[i].Msg) + 1
		if next < len(d.base.Msgs) && d.match[d.base.starts[next]] >= 0 {
			if id := responses.ItemID(d.base.Msgs[next]); id != "" {
				return check.SeverityError, fmt.Sprintf("its follower item %s is kept, and the API rejects an item id produced after reasoning that comes without its reasoning item", id)
			}
		}
		return check.SeverityWarning, "the model loses its reasoning and the prompt cache is invalidated from there"
	case traffic.WireGemini:
		if b.Type != traffic.BlockToolCall {
			return check.SeverityWarning, "signatures on parts other than function calls are not validated, but the model loses that context"
		}
		return check.SeverityError, "a function call must keep the thoughtSignature it was produced with, at its position"
	case traffic.WireAnthropic:
		return check.SeverityError, "thinking blocks bind the history around them; with preserved thinking a block omitted between others fails, and the latest assistant message's thinking must be echoed unchanged"
	}
	return check.SeverityWarning, "the provider's opaque reasoning context is lost"
}
