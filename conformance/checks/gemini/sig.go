package gemini

import (
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/diff"
	"github.com/llmtck/llmtck/providers/gemini"
)

// judgeSignatureBesideCall reports thoughtSignatures nested inside a functionCall or
// functionResponse object instead of beside it.
func judgeSignatureBesideCall(tr *check.Traffic, r *check.Reporter) {
	for _, q := range analyze(tr).reqs {
		if q == nil {
			continue
		}
		for i := range q.req.Messages {
			for j := range q.req.Messages[i].Blocks {
				b := &q.req.Messages[i].Blocks[j]
				if _, ok := gemini.NestedSignature(b); ok {
					r.Add(q.ex.Index, "request."+b.Path+"."+b.WireType+".thoughtSignature",
						"thoughtSignature is nested inside the %s object (%s); the API reads it only on the part, beside %s", b.WireType, b.Name, b.WireType)
				}
			}
		}
	}
}

// judgeCurrentTurnSigned reports function calls that lost the signature their
// response gave them, and current-turn steps whose first call has none.
func judgeCurrentTurnSigned(tr *check.Traffic, r *check.Reporter) {
	once := reportedFaults{}
	for _, q := range analyze(tr).reqs {
		if q == nil {
			continue
		}
		for _, run := range q.runs {
			for c, p := range run.calls {
				if p.sig != nil {
					continue // present: GEM-SIG-003 and GEM-SIG-005 judge it
				}
				strict := c == 0 && run.current && q.enforcing
				switch {
				case p.counter >= 0 && run.out.sigs[p.counter] != nil:
					o := run.out.blocks[p.counter]
					sev := check.SeverityWarning
					if strict {
						sev = check.SeverityError
					}
					if !once.first(sev, "drop", o) {
						continue
					}
					r.AddSeverity(sev, q.ex.Index, "request."+p.b.Path, "%s of the %s carries no thoughtSignature; %s produced it with one%s",
						describe(p.b), step(c, run), originPlace(o), nested(p.b))
				case p.counter < 0 && strict:
					r.Add(q.ex.Index, "request."+p.b.Path, "%s opens a step of the current turn without a thoughtSignature, and no recorded response produced it: %s validates signatures of the current turn; a call the client wrote or imported needs the dummy signature%s",
						describe(p.b), q.req.Model, nested(p.b))
				}
			}
		}
	}
}

// judgeSignaturesUnchanged compares every echoed signature with the recorded one:
// the bytes it decodes to and the part it sits on.
func judgeSignaturesUnchanged(tr *check.Traffic, r *check.Reporter) {
	once := reportedFaults{}
	for _, q := range analyze(tr).reqs {
		if q == nil {
			continue
		}
		for _, p := range q.signed {
			if p.sig.dummy {
				continue // synthetic, not an echo: GEM-SIG-005
			}
			loc := partLoc{p.b}
			current := p.msg > q.turnStart
			if p.sig.err != nil {
				r.Add(q.ex.Index, loc.String(), "%s: %v; the API decodes signatures as base64", describe(p.b), p.sig.err)
				continue
			}
			switch {
			case p.origin != nil:
				judgeMoved(r, once, q, p, current, loc)
			case p.run != nil && p.counter >= 0:
				rec := p.run.out.sigs[p.counter]
				o := p.run.out.blocks[p.counter]
				sev := severity(o.block(), p.b, current, q.enforcing)
				if !once.first(sev, "bytes", o) {
					continue
				}
				if rec == nil {
					r.AddSeverity(sev, q.ex.Index, loc.String(), "%s carries a signature that no recorded response produced; %s gave this part none", describe(p.b), originPlace(o))
					continue
				}
				f := r.AddSeverity(sev, q.ex.Index, loc.String(), "thoughtSignature of %s differs from the one %s produced (compared after base64 decoding)", describe(p.b), originPlace(o))
				if rec.err == nil {
					f.Diff = "standard base64 of the decoded bytes: " + diff.Bytes(stdBase64(rec.bytes), stdBase64(p.sig.bytes))
				}
			}
		}
	}
}

// judgeMoved checks that a signature found in the index sits on the
// part that echoes the one that carried it.
func judgeMoved(r *check.Reporter, once reportedFaults, q *resolvedRequest, p *requestPart, current bool, loc partLoc) {
	o := p.origin
	rec := o.block()
	if p.run != nil && p.run.out == o.out {
		cp := p.run.counterpart[o.pos]
		if cp == p {
			return
		}
		if cp == nil && kindOf(rec) == kindEmpty && kindOf(p.b) != kindCall {
			return // a signature-only part merged into text: GEM-SIG-004
		}
		if cp == nil && kindOf(rec) != kindCall && kindOf(rec) == kindOf(p.b) && p.before == o.out.before[o.pos] {
			// Same kind of part, different text: merged or split text.
			if once.first(check.SeverityWarning, "text", o) {
				r.AddSeverity(check.SeverityWarning, q.ex.Index, loc.String(), "the signature of %s (%s) is on %s, whose text differs: text parts were merged or split around it",
					describe(rec), originPlace(o), describe(p.b))
			}
			return
		}
	}
	if p.run != nil && p.run.out != o.out && kindOf(rec) == kindOf(p.b) && rec.Name == p.b.Name {
		// A turn that joins parts of several responses: the part is the
		// same kind as the one that carried the signature; nothing to
		// compare its position with.
		return
	}
	sev := severity(rec, p.b, current, q.enforcing)
	if !once.first(sev, "moved", o) {
		return
	}
	where := "on " + describe(p.b)
	if p.run == nil {
		where += ", in a user content"
	}
	r.AddSeverity(sev, q.ex.Index, loc.String(), "the signature of %s (%s) is %s: moved off the part it came on", describe(rec), originPlace(o), where)
}

// judgeSignatureOnlyPartsKept reports signature-only parts of a response that the echo
// merged into a neighbour or dropped.
func judgeSignatureOnlyPartsKept(tr *check.Traffic, r *check.Reporter) {
	once := reportedFaults{}
	eachEchoedSig(tr, func(q *resolvedRequest, run *modelRun, k int) {
		out := run.out
		if kindOf(&out.msg.Blocks[k]) != kindEmpty {
			return
		}
		if cp := run.counterpart[k]; cp != nil && cp.sig != nil {
			return
		}
		o := out.blocks[k]
		if ps := q.withSig(out.sigs[k].key); len(ps) > 0 {
			// Echoed elsewhere than in this turn: moved, GEM-SIG-003's to report.
			if p := ps[0]; p.run == run && kindOf(p.b) != kindEmpty && once.first(check.SeverityWarning, "merged", o) {
				r.Add(q.ex.Index, "request."+p.b.Path, "the signature-only part of %s was merged into %s instead of being echoed as its own part", originPlace(o), describe(p.b))
			}
			return
		}
		if once.first(check.SeverityWarning, "dropped", o) {
			r.Add(q.ex.Index, "request."+q.req.Messages[run.first].Path, "the model turn echoing %s drops its signature-only part", originPlace(o))
		}
	})
}

// judgeDummyOnlyOnSynthetic reports dummy signatures standing where the response
// gave a real one.
func judgeDummyOnlyOnSynthetic(tr *check.Traffic, r *check.Reporter) {
	for _, q := range analyze(tr).reqs {
		if q == nil {
			continue
		}
		for _, p := range q.signed {
			if !p.sig.dummy || p.run == nil || p.counter < 0 || p.run.out.sigs[p.counter] == nil {
				continue
			}
			r.Add(q.ex.Index, partLoc{p.b}.String(), "%s carries the dummy signature %s, but %s produced it with a real one: the dummy skips validation and drops the model's reasoning",
				describe(p.b), clipRaw(p.sig.raw), originPlace(p.run.out.blocks[p.counter]))
		}
	}
}

// judgeTextSignaturesEchoed reports signatures of text and other non-call parts that
// the echo dropped.
func judgeTextSignaturesEchoed(tr *check.Traffic, r *check.Reporter) {
	once := reportedFaults{}
	eachEchoedSig(tr, func(q *resolvedRequest, run *modelRun, k int) {
		out := run.out
		b := &out.msg.Blocks[k]
		if kind := kindOf(b); kind == kindEmpty || kind == kindCall {
			return
		}
		cp := run.counterpart[k]
		if cp != nil && cp.sig != nil || len(q.withSig(out.sigs[k].key)) > 0 {
			return
		}
		o := out.blocks[k]
		if !once.first(check.SeverityWarning, "dropped", o) {
			return
		}
		loc := "request." + q.req.Messages[run.first].Path
		if cp != nil {
			loc = "request." + cp.b.Path
		}
		r.Add(q.ex.Index, loc, "the signature of %s (%s) was not echoed", describe(b), originPlace(o))
	})
}

// eachEchoedSig calls fn for every signed block of every response
// content a request's model turn echoes.
func eachEchoedSig(tr *check.Traffic, fn func(q *resolvedRequest, run *modelRun, k int)) {
	for _, q := range analyze(tr).reqs {
		if q == nil {
			continue
		}
		for _, run := range q.runs {
			if run.out == nil {
				continue
			}
			for k, s := range run.out.sigs {
				if s != nil {
					fn(q, run, k)
				}
			}
		}
	}
}
