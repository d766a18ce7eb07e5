package harness

import (
	"fmt"

	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/traffic"
)

func (r *Run) run() {
	defer r.cancel()
	r.emit(engine.StartEvent{EventHeader: r.header(), Depth: r.p.depth, MaxIterations: r.max})
	reason, n := r.iterate()
	if r.p.Store != nil {
		if err := r.persist(); err != nil {
			r.emit(engine.ErrorEvent{EventHeader: r.header(), Err: err})
		}
	}
	r.endedBy = reason
	r.emit(engine.EndEvent{EventHeader: r.header(), Reason: reason, Iterations: n, TotalUsage: r.usage})
}

// abortReason says why the run must stop now, or "".
func (r *Run) abortReason() string {
	switch {
	case r.stopped:
		return "the event consumer stopped"
	case r.ctx.Err() != nil:
		return "context: " + r.ctx.Err().Error()
	}
	return ""
}

// apply applies mutations of one phase, reporting rejections as error
// events (a rejection does not stop the loop: the transcript is unchanged
// by it).
func (r *Run) apply(p engine.Phase, ms ...engine.Mutation) error {
	var b engine.Batch
	if err := b.Add(p, ms...); err != nil {
		r.emit(engine.ErrorEvent{EventHeader: r.header(), Err: err})
		return err
	}
	err := b.Apply(r.tr)
	if err != nil {
		r.emit(engine.ErrorEvent{EventHeader: r.header(), Err: err})
	}
	return err
}

// iterate runs model calls until a final answer, the limit, an error or an
// abort, and returns why it stopped and how many calls it made.
func (r *Run) iterate() (engine.EndReason, int) {
	for i := 1; i <= r.max; i++ {
		if why := r.abortReason(); why != "" {
			return engine.EndCancelled, i - 1
		}
		if r.p.Hook != nil {
			r.apply(engine.PhaseHook, r.p.Hook(i, r.tr.Messages())...)
		}
		for _, m := range r.tr.Ephemeral() {
			r.emit(engine.EphemeralEvent{EventHeader: r.header(), Message: m})
		}

		res, err := r.call(i)
		if err != nil {
			if why := r.abortReason(); why != "" {
				r.apply(engine.PhaseAbort, engine.AssistantTruncated{PartialContent: res.partial, AbortReason: why})
				return engine.EndCancelled, i
			}
			r.emit(engine.ErrorEvent{EventHeader: r.header(), Err: err})
			if res.partial != "" {
				r.apply(engine.PhaseAbort, engine.AssistantTruncated{PartialContent: res.partial, AbortReason: err.Error()})
			}
			return engine.EndError, i
		}
		r.tr.ConsumeEphemeral()
		if u := res.usage; u != (engine.TokenUsage{}) {
			r.usage = r.usage.Add(u)
			r.emit(engine.UsageEvent{EventHeader: r.header(), TokenUsage: u})
		}
		if len(res.msgs) == 0 {
			return engine.EndFinal, i // nothing said: nothing to record
		}
		var said engine.Mutation = engine.AssistantMessage{Message: res.msgs[0]}
		if len(res.msgs) > 1 {
			said = engine.AssistantItems{Items: res.msgs}
		}
		if err := r.apply(engine.PhaseLLM, said); err != nil {
			return engine.EndError, i
		}
		r.keepThoughts(i, res.msgs)
		calls := r.narrate(i, res.msgs)
		if len(calls) == 0 {
			return engine.EndFinal, i
		}
		r.runTools(calls)
		if why := r.abortReason(); why != "" {
			r.cancelCalls(why)
			return engine.EndCancelled, i
		}
	}
	return engine.EndMaxIterations, r.max
}

// narrate emits the reasoning, text and tool calls of a reply (one
// message, or one per item) and returns its calls. Empty text, such as a
// Gemini part that only carries a signature, says nothing.
func (r *Run) narrate(i int, msgs []traffic.Message) []traffic.Block {
	var calls []traffic.Block
	r.final = ""
	j := 0
	for _, m := range msgs {
		for _, b := range m.Blocks {
			id := fmt.Sprintf("%s-%d-%d", r.runID, i, j)
			j++
			switch b.Type {
			case traffic.BlockThinking, traffic.BlockReasoning:
				if b.Text != "" {
					r.emit(engine.ReasoningEvent{EventHeader: r.header(), ID: id, Content: r.h.cfg.Redaction.Thinking(b.Text)})
				}
			case traffic.BlockText:
				if b.Text != "" {
					r.final += b.Text
					r.emit(engine.TextEvent{EventHeader: r.header(), ID: id, Content: b.Text})
				}
			case traffic.BlockToolCall:
				calls = append(calls, b)
			}
		}
	}
	// Each call is announced by runTools once the permission gate has
	// decided it (docs/reference-model.md, seed 004), and answered by a
	// tool_result, even when cancelled.
	return calls
}

// cancelCalls answers every pending call with a cancelled result (the abort
// phase) and closes, with a tool_result event, each call whose tool_call
// event was sent: the event stream closes every call it opened.
func (r *Run) cancelCalls(why string) {
	pending := r.tr.Pending()
	r.apply(engine.PhaseAbort, r.tr.CancelPending(why)...)
	for _, c := range pending {
		if r.announced[c.ID] {
			r.emit(engine.ToolResultEvent{EventHeader: r.header(), ID: c.ID, Name: c.Name, IsError: true,
				Context: "cancelled: " + why})
		}
	}
}
