package thread

import (
	"sort"

	"github.com/llmtck/llmtck/traffic"
)

// histDiff says how a request's history relates to an earlier one of its
// thread (the base): which of the base's units it kept, and where.
type histDiff struct {
	base, Req *Request
	// match[i] is the index in req.Units of base unit i, or -1 when the unit
	// is gone from req.
	match []int
	// kept counts the base's content blocks kept.
	kept int
	// lastKept is the last base unit kept, -1 when none: units after it are
	// the tail, dropped content before it is an edit.
	lastKept int
	// firstKept is the first base content block kept, -1 when none.
	firstKept int
	// compaction is set when a prefix of the base history, droppedMsgs
	// messages, was dropped and replaced by summaryMsgs messages (maybe none).
	compaction  bool
	droppedMsgs int
	summaryMsgs int
}

// diffHistory aligns base's history with req's. An append-only step (the
// common case) costs one slice comparison.
func diffHistory(base, req *Request) *histDiff {
	d := &histDiff{base: base, Req: req, match: make([]int, len(base.Units))}
	if req.extends(base) {
		for i := range d.match {
			d.match[i] = i
		}
	} else {
		for i := range d.match {
			d.match[i] = -1
		}
		alignUnits(base.Units, req.Units, d.match, 0, len(base.Units), 0, len(req.Units), false)
		d.preferTailDrop()
	}
	d.count()
	d.compaction = d.isCompaction()
	return d
}

// count fills kept, lastKept and firstKept from match.
func (d *histDiff) count() {
	d.kept, d.lastKept, d.firstKept = 0, -1, -1
	for i, j := range d.match {
		if j < 0 {
			continue
		}
		d.lastKept = i
		if !d.base.Units[i].IsStart() {
			d.kept++
			if d.firstKept < 0 {
				d.firstKept = i
			}
		}
	}
}

// appendOnly reports whether req keeps the whole base history in place.
func (d *histDiff) appendOnly() bool {
	for _, j := range d.match {
		if j < 0 {
			return false
		}
	}
	return len(d.inserted()) == 0
}

// alignUnits matches a[alo:ahi] with b[blo:bhi] in the manner of patience
// diff: common prefix, common suffix when the range is closed on the right
// (the open end of req holds what was appended, so its tail is never a
// suffix match), then blocks that occur exactly once on each side serve as
// anchors, kept in order by a longest increasing subsequence, and the gaps
// between anchors are aligned the same way. Message units are never anchors:
// they repeat ("user", "assistant") and would tie unrelated messages.
func alignUnits(a, b []Unit, match []int, alo, ahi, blo, bhi int, closed bool) {
	for alo < ahi && blo < bhi && a[alo].FP == b[blo].FP {
		match[alo] = blo
		alo++
		blo++
	}
	if closed {
		for alo < ahi && blo < bhi && a[ahi-1].FP == b[bhi-1].FP {
			ahi--
			bhi--
			match[ahi] = bhi
		}
	}
	if alo == ahi || blo == bhi {
		return
	}
	type seen struct{ na, nb, ia, ib int }
	count := map[uint64]*seen{}
	for i := alo; i < ahi; i++ {
		if a[i].IsStart() {
			continue
		}
		s := count[a[i].FP]
		if s == nil {
			s = &seen{}
			count[a[i].FP] = s
		}
		s.na++
		s.ia = i
	}
	for j := blo; j < bhi; j++ {
		if s := count[b[j].FP]; s != nil && !b[j].IsStart() {
			s.nb++
			s.ib = j
		}
	}
	var anchors [][2]int
	for _, s := range count {
		if s.na == 1 && s.nb == 1 {
			anchors = append(anchors, [2]int{s.ia, s.ib})
		}
	}
	if len(anchors) == 0 {
		return
	}
	sort.Slice(anchors, func(i, j int) bool { return anchors[i][0] < anchors[j][0] })
	pa, pb := alo, blo
	for _, an := range increasing(anchors) {
		alignUnits(a, b, match, pa, an[0], pb, an[1], true)
		match[an[0]] = an[1]
		pa, pb = an[0]+1, an[1]+1
	}
	alignUnits(a, b, match, pa, ahi, pb, bhi, closed)
}

// increasing returns the longest subsequence of pairs (sorted by their first
// element) whose second elements increase.
func increasing(pairs [][2]int) [][2]int {
	var tails []int // tails[k] = index in pairs ending the best run of length k+1
	prev := make([]int, len(pairs))
	for i, p := range pairs {
		k := sort.Search(len(tails), func(k int) bool { return pairs[tails[k]][1] >= p[1] })
		if k > 0 {
			prev[i] = tails[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	out := make([][2]int, len(tails))
	for i, k := len(tails)-1, tails[len(tails)-1]; i >= 0; i, k = i-1, prev[k] {
		out[i] = pairs[k]
	}
	return out
}

// preferTailDrop reads "the base's trailing user content was dropped and new
// content appended" rather than "content was inserted before the base's
// trailing user content": a harness that sends the same reminder at the
// tail of every request is sending ephemeral content, not editing history.
// It applies at the first place where req holds new content before a kept
// base unit while the base lost nothing there (a pure insertion), when all
// base units from there on are ephemeral-shaped.
func (d *histDiff) preferTailDrop() {
	prev, dropped := -1, false
	for i, j := range d.match {
		if j < 0 {
			dropped = dropped || !d.base.Units[i].IsStart()
			continue
		}
		inserted := false
		for k := prev + 1; k < j; k++ {
			inserted = inserted || !d.Req.Units[k].IsStart()
		}
		if inserted && !dropped {
			for k := i; k < len(d.base.Units); k++ {
				if !ephemeralShaped(d.base, k) {
					return
				}
			}
			for k := i; k < len(d.match); k++ {
				d.match[k] = -1
			}
			return
		}
		prev, dropped = j, false
	}
}

// ephemeralShaped reports whether base unit i may be ephemeral content:
// user, system or developer content that is no tool result and carries no
// signed payload.
func ephemeralShaped(r *Request, i int) bool {
	m, b := r.Message(i)
	switch m.Role {
	case traffic.RoleUser, traffic.RoleSystem, traffic.RoleDeveloper:
	default:
		return false
	}
	if b == nil {
		return true
	}
	switch b.Type {
	case traffic.BlockText, traffic.BlockImage, traffic.BlockDocument, traffic.BlockOther:
		return !b.Signed()
	}
	return false
}

// tailAllowed reports whether every base unit after the last kept one is
// ephemeral-shaped: content sent once, allowed at the tail.
func (d *histDiff) tailAllowed() bool {
	for i := d.lastKept + 1; i < len(d.base.Units); i++ {
		if !ephemeralShaped(d.base, i) {
			return false
		}
	}
	return true
}

// inserted returns req's units that are new and sit among the kept ones
// (before the last of them, so not appended).
func (d *histDiff) inserted() []int {
	used := make([]bool, len(d.Req.Units))
	last := -1
	for _, j := range d.match {
		if j >= 0 {
			used[j] = true
			last = max(last, j)
		}
	}
	var out []int
	for j := 0; j < last; j++ {
		if !used[j] {
			out = append(out, j)
		}
	}
	return out
}

// isCompaction recognises a prefix of the base history replaced by a
// summary, or dropped: the base's first kept block opens a message (in both
// histories), every block after it is kept up to an ephemeral tail, nothing
// new sits among the kept content, and enough is kept to tell the
// conversation apart. The system prompt is kept: threads share a head. One
// message replaced by one is an edit, not a compaction.
func (d *histDiff) isCompaction() bool {
	if d.firstKept < 1 {
		return false
	}
	first := int(d.base.Units[d.firstKept].Msg)
	if first == 0 || d.base.starts[first]+1 != d.firstKept {
		return false
	}
	img := d.match[d.firstKept]
	summary := int(d.Req.Units[img].Msg)
	if d.Req.starts[summary]+1 != img {
		return false
	}
	distinct := d.kept >= 2
	for i := d.firstKept; i <= d.lastKept; i++ {
		_, b := d.base.Message(i)
		if b == nil {
			continue
		}
		if d.match[i] < 0 {
			return false
		}
		distinct = distinct || b.ID != "" || b.ToolCallID != "" || b.Signed()
	}
	if !distinct || !d.tailAllowed() {
		return false
	}
	for _, j := range d.inserted() {
		if j > img {
			return false
		}
	}
	if first == 1 && summary >= 1 {
		return false
	}
	d.droppedMsgs, d.summaryMsgs = first, summary
	return true
}

// continues reports whether req plausibly carries base's conversation on:
// it keeps some of it, and removed no more than it kept (ephemeral tail and
// compaction aside).
func (d *histDiff) continues() bool {
	if d.kept == 0 {
		return false
	}
	if d.compaction {
		return true
	}
	edits := 0
	tail := d.tailAllowed()
	for i, j := range d.match {
		if j >= 0 || d.base.Units[i].IsStart() {
			continue
		}
		if i > d.lastKept && tail {
			continue
		}
		edits++
	}
	return edits <= d.kept
}
