package conformance

import (
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/providers/responses"
)

// histAnalysis is what threading learns about one traffic: the threads, the
// findings of the HIST family, and the ephemeral content each request sent.
type histAnalysis struct {
	tr      *Traffic
	threads []*histThread
	reqs    []*histRequest // by exchange position; nil when not threaded
	notes   map[string][]histNote
	// eph lists, by exchange position, the request's content that its
	// successor in the thread no longer carries.
	eph map[int][]ephUnit
}

// histNote is a finding waiting for its check's reporter.
type histNote struct {
	sev         Severity // "" means the check's own severity
	interaction int
	location    string
	message     string
	diff        string
}

// ephUnit is one unit of ephemeral content: sent in req, gone from the next
// request of its thread.
type ephUnit struct {
	req  *histRequest
	unit int
	tail bool // at the tail of req, where ephemeral content is allowed
}

func analyseHistory(tr *Traffic) *histAnalysis {
	a := &histAnalysis{tr: tr, reqs: make([]*histRequest, len(tr.Exchanges)),
		notes: map[string][]histNote{}, eph: map[int][]ephUnit{}}
	t := newThreader()
	for i := range tr.Exchanges {
		ex := &tr.Exchanges[i]
		if ex.Request == nil || ex.Wire == engine.WireUnknown || ex.Wire == "" {
			continue
		}
		r := newHistRequest(ex, i)
		a.reqs[i] = r
		t.add(r)
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
func (a *histAnalysis) judgeThread(th *histThread) {
	var prev, base *histRequest
	for _, r := range th.reqs {
		if r.chained {
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

func (a *histAnalysis) note(check string, sev Severity, r *histRequest, location, diff, format string, args ...any) {
	a.notes[check] = append(a.notes[check], histNote{sev: sev, interaction: a.tr.Exchanges[r.ex].Index,
		location: location, message: fmt.Sprintf(format, args...), diff: diff})
}

// recordEphemeral remembers the user content blocks d.base sent that d.req
// dropped (a compaction's summarised prefix aside).
func (a *histAnalysis) recordEphemeral(d *histDiff) {
	for i, j := range d.match {
		if j >= 0 || d.base.units[i].isStart() || !ephemeralShaped(d.base, i) {
			continue
		}
		if d.compaction && i < d.firstKept {
			continue // summarised, not ephemeral
		}
		e := ephUnit{req: d.base, unit: i, tail: i > d.lastKept}
		a.eph[d.base.ex] = append(a.eph[d.base.ex], e)
		if !e.tail {
			continue // an edit: HIST-001 and the prefix checks judge it
		}
		th := d.base.thread
		if th.ephemeral == nil {
			th.ephemeral = map[uint64]bool{}
		}
		th.ephemeral[d.base.units[i].fp] = true
	}
}

// judgeStep reports how d.req departs from appending to d.base's history.
func (a *histAnalysis) judgeStep(d *histDiff) {
	if d.appendOnly() {
		return // the base's last message only gained blocks
	}
	diff := editDiff(d)
	r, base := d.req, d.base
	baseEx := a.tr.Exchanges[base.ex].Index
	broken := a.brokenPairs(d, diff)
	if d.compaction {
		dropped := 0
		for i := 0; i < d.firstKept; i++ {
			if _, b := base.message(i); b != nil && signed(b) {
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
		a.note("HIST-004", "", r, "request."+r.msgs[0].Path, diff,
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
	return len(d.base.units)
}

// editLocation is where, in the request, base unit i was or would be: its
// message when that is kept, else the message holding the next kept unit,
// else the first inserted unit, else the last message.
func editLocation(d *histDiff, i int) string {
	r := d.req
	if i < len(d.base.units) {
		s := d.base.starts[d.base.units[i].msg]
		if j := d.match[s]; j >= 0 {
			return "request." + r.msgs[r.units[j].msg].Path
		}
		for k := i + 1; k < len(d.match); k++ {
			if j := d.match[k]; j >= 0 {
				return "request." + r.msgs[r.units[j].msg].Path
			}
		}
	}
	if ins := d.inserted(); len(ins) > 0 {
		return "request." + r.msgs[r.units[ins[0]].msg].Path
	}
	if len(r.msgs) == 0 {
		return "request"
	}
	return "request." + r.msgs[len(r.msgs)-1].Path
}

// describeEdit lists the base messages removed or changed (before the tail,
// or in a tail that is not ephemeral) and the request messages inserted.
func describeEdit(d *histDiff) string {
	base, r := d.base, d.req
	tail := d.tailAllowed()
	var items []string
	for m := range base.msgs {
		lo, hi := base.starts[m], len(base.units)
		if m+1 < len(base.msgs) {
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
			items = append(items, fmt.Sprintf("removed %s (%s)", base.msgs[m].Path, base.msgs[m].Role))
		default:
			items = append(items, fmt.Sprintf("changed %s (%s)", base.msgs[m].Path, base.msgs[m].Role))
		}
	}
	seen := map[int32]bool{} // request messages already named
	for m := range base.msgs {
		if j := d.match[base.starts[m]]; j >= 0 && describedChanged(d, m, tail) {
			seen[r.units[j].msg] = true
		}
	}
	for _, j := range d.inserted() {
		m := r.units[j].msg
		if seen[m] {
			continue
		}
		seen[m] = true
		verb := "inserted"
		if d.matchedStart(m) {
			verb = "new content in"
		}
		items = append(items, fmt.Sprintf("%s %s (%s) of this request", verb, r.msgs[m].Path, r.msgs[m].Role))
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
	lo, hi := d.base.starts[m], len(d.base.units)
	if m+1 < len(d.base.msgs) {
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
	s := d.req.starts[m]
	for _, j := range d.match {
		if j == s {
			return true
		}
	}
	return false
}

// brokenPairs reports (HIST-002) tool calls kept without their results, or
// results kept without their calls, because the edit removed the other half.
func (a *histAnalysis) brokenPairs(d *histDiff, diff string) int {
	base, r := d.base, d.req
	bKeys := pairKeys(base)
	calls, results := map[string]string{}, map[string]string{}
	for j, k := range pairKeys(r) {
		_, b := r.message(j)
		if b.Type == engine.BlockToolCall {
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
		_, b := base.message(i)
		if b.Type == engine.BlockToolCall {
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

func pairName(b *engine.Block) string {
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
func pairKeys(r *histRequest) map[int]string {
	out := map[int]string{}
	calls, results := map[string]int{}, map[string]int{}
	for i := range r.units {
		_, b := r.message(i)
		if b == nil {
			continue
		}
		switch b.Type {
		case engine.BlockToolCall:
			if b.ID != "" {
				out[i] = "id:" + b.ID
			} else {
				out[i] = fmt.Sprintf("name:%s#%d", b.Name, calls[b.Name])
				calls[b.Name]++
			}
		case engine.BlockToolResult:
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
func (a *histAnalysis) droppedSigned(d *histDiff, diff string) int {
	base, r := d.base, d.req
	baseEx := a.tr.Exchanges[base.ex].Index
	n := 0
	for i := 0; i < d.lastKept; i++ {
		if d.match[i] >= 0 {
			continue
		}
		m, b := base.message(i)
		if b == nil || !signed(b) {
			continue
		}
		sev, why := signedDropSeverity(d, i, m, b)
		n++
		a.note("HIST-003", sev, r, editLocation(d, i), diff,
			"%s at %s of interaction %d's request is gone while later history is kept: %s",
			describeBlock(base.wire, b), b.Path, baseEx, why)
	}
	return n
}

// signedDropSeverity says what removing signed block b (unit i, in message
// m of the base) costs on its wire.
func signedDropSeverity(d *histDiff, i int, m *engine.Message, b *engine.Block) (Severity, string) {
	switch d.base.wire {
	case engine.WireResponses:
		next := int(d.base.units[i].msg) + 1
		if next < len(d.base.msgs) && d.match[d.base.starts[next]] >= 0 {
			if id := responses.ItemID(d.base.msgs[next]); id != "" {
				return SeverityError, fmt.Sprintf("its follower item %s is kept, and the API rejects an item id produced after reasoning that comes without its reasoning item", id)
			}
		}
		return SeverityWarning, "the model loses its reasoning and the prompt cache is invalidated from there"
	case engine.WireGemini:
		if b.Type != engine.BlockToolCall {
			return SeverityWarning, "signatures on parts other than function calls are not validated, but the model loses that context"
		}
		return SeverityError, "a function call must keep the thoughtSignature it was produced with, at its position"
	case engine.WireAnthropic:
		return SeverityError, "thinking blocks bind the history around them; with preserved thinking a block omitted between others fails, and the latest assistant message's thinking must be echoed unchanged"
	}
	return SeverityWarning, "the provider's opaque reasoning context is lost"
}
