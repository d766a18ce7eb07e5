package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/traffic"
)

// outcome is what became of one tool call.
type outcome struct {
	res       engine.ToolExecutionResult
	isError   bool
	cancelled bool              // aborted: the abort phase answers it
	proposed  []engine.Mutation // tool-phase mutations the tool asked for
}

// runTools runs the calls one after another, in order, applying each
// result (and what the tool proposed) as it completes. It returns early on
// an abort, leaving the remaining calls pending for the abort phase.
func (r *Run) runTools(calls []traffic.Block) {
	for _, c := range calls {
		if r.abortReason() != "" {
			return
		}
		if !r.tr.IsPending(c.ID) {
			// An earlier tool replaced or compacted the context: this call
			// is no longer in the transcript, so its result has no place.
			r.announce(c)
			r.emit(engine.ToolResultEvent{EventHeader: r.header(), ID: c.ID, Name: c.Name, IsError: true,
				Context: "not run: the context was replaced before this call"})
			continue
		}
		o := r.runTool(c)
		if o.cancelled {
			return
		}
		var m engine.Mutation = engine.ToolResult{ToolCallID: c.ID, Name: c.Name, Content: o.res.Context, IsError: o.isError}
		if len(o.res.Media) > 0 && !o.isError {
			user := traffic.Message{Role: traffic.RoleUser}
			if o.res.Context != "" {
				user.Blocks = append(user.Blocks, traffic.Block{Type: traffic.BlockText, Text: o.res.Context})
			}
			user.Blocks = append(user.Blocks, o.res.Media...)
			m = engine.MultimodalToolResult{ToolCallID: c.ID, ToolName: c.Name, Arguments: c.Input, UserMessages: []traffic.Message{user}}
		}
		r.apply(engine.PhaseTool, append([]engine.Mutation{m}, o.proposed...)...)
		r.emit(engine.ToolResultEvent{EventHeader: r.header(), ID: c.ID, Name: c.Name,
			Context: o.res.Context, Result: o.res.Result, IsError: o.isError})
	}
}

func failed(format string, args ...any) outcome {
	return outcome{res: engine.ToolExecutionResult{Context: fmt.Sprintf(format, args...)}, isError: true}
}

// announce sends the call's tool_call event, once the gate has decided it.
// Its input is the parsed arguments object on every wire (the input of
// docs/reference-model.md, seed 004); arguments that are not an object are sent as the wire had them.
func (r *Run) announce(c traffic.Block) {
	if r.announced == nil {
		r.announced = map[string]bool{}
	}
	if !r.announced[c.ID] {
		r.announced[c.ID] = true
		input := c.Input
		if args, err := engine.ToolArguments(c.Input); err == nil {
			input = args
		}
		r.emit(engine.ToolCallEvent{EventHeader: r.header(), ID: c.ID, Name: c.Name, Input: input})
	}
}

// runTool validates, authorises and executes one call.
func (r *Run) runTool(c traffic.Block) outcome {
	args, err := r.box.Validate(c.Name, c.Input)
	if err != nil {
		r.announce(c)
		return failed("%v", err)
	}
	req, err := r.box.Permission(c.Name, args)
	if err != nil {
		r.announce(c)
		return failed("%v", err)
	}
	switch d := r.gate.Decide(c.ID, req); d.Verdict {
	case engine.Deny:
		r.announce(c)
		return failed("Permission denied (%s): %s", d.Rule, d.Reason)
	case engine.Relay:
		answer, ok := r.relay(c, args)
		if !ok {
			return outcome{cancelled: true}
		}
		r.announce(c)
		if !answer.Approved {
			return failed("Permission denied by the user: %s", answer.Reason)
		}
	default:
		r.announce(c)
	}
	if r.abortReason() != "" {
		return outcome{cancelled: true} // the consumer stopped at the tool_call
	}
	def, _ := r.box.Get(c.Name)
	if def.Execute == nil {
		return failed("tool %s cannot run in this harness", c.Name)
	}
	var o outcome
	tc := engine.ToolContext{
		RunID: r.runID, ParentID: c.ID, Depth: r.p.depth,
		Spawn: r.spawner(c.ID),
		Mutate: func(m engine.Mutation) error {
			if m == nil || !engine.PhaseTool.Allowed(m.Kind()) {
				return fmt.Errorf("a tool cannot propose %v", m)
			}
			o.proposed = append(o.proposed, m)
			return nil
		},
		Progress: func(content any) {
			r.emit(engine.ToolProgressEvent{EventHeader: r.header(), ID: fmt.Sprintf("%s-progress", c.ID),
				ToolCallID: c.ID, Name: c.Name, Content: content})
		},
		Emit:     func(e engine.Event) { r.emit(e) },
		FileTime: r.p.FileTime,
	}
	res, err := def.Execute(r.ctx, args, tc)
	switch {
	case err != nil && r.abortReason() != "":
		return outcome{cancelled: true}
	case err != nil:
		o.res, o.isError = engine.ToolExecutionResult{Context: fmt.Sprintf("tool %s failed: %v", c.Name, err), Result: res.Result}, true
	default:
		o.res = res
	}
	return o
}

// relay asks the application to approve a call and waits for the answer;
// ok is false when the run was aborted while waiting.
func (r *Run) relay(c traffic.Block, args json.RawMessage) (engine.PermissionResponse, bool) {
	answer := make(chan engine.PermissionResponse, 1)
	var once sync.Once
	respond := func(pr engine.PermissionResponse) { once.Do(func() { answer <- pr }) }
	if !r.emit(engine.NewRelayEvent(r.header(), "relay-"+c.ID, c.ID, c.Name, args, respond)) {
		return engine.PermissionResponse{}, false
	}
	select {
	case a := <-answer:
		return a, true
	case <-r.ctx.Done():
		return engine.PermissionResponse{}, false
	}
}

// spawner runs a sub-agent on the same provider, tools and permission gate;
// its events, carrying parentId = the spawning call, flow into this run's
// stream. Call it from Execute's goroutine.
func (r *Run) spawner(callID string) func(ctx context.Context, task string) (string, error) {
	if r.p.Spawn != nil {
		return func(ctx context.Context, task string) (string, error) { return r.p.Spawn(ctx, task, callID) }
	}
	return func(ctx context.Context, task string) (string, error) {
		if r.p.depth+1 > r.h.cfg.MaxDepth {
			return "", fmt.Errorf("spawn: depth %d exceeds the limit of %d", r.p.depth+1, r.h.cfg.MaxDepth)
		}
		child, err := r.h.Start(ctx, Params{
			Messages:      []traffic.Message{{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: task}}}},
			Tools:         r.p.Tools,
			MaxIterations: r.p.MaxIterations,
			FileTime:      r.p.FileTime,
			Model:         r.p.Model,
			ParentID:      callID,
			depth:         r.p.depth + 1,
			gate:          r.gate,
		})
		if err != nil {
			return "", fmt.Errorf("spawn: %w", err)
		}
		child.started = true
		child.out = r.emit
		child.run()
		switch child.endedBy {
		case engine.EndFinal:
			return child.final, nil
		case engine.EndCancelled:
			return child.final, errors.New("spawn: the sub-agent was cancelled")
		}
		return child.final, fmt.Errorf("spawn: the sub-agent ended with %s", child.endedBy)
	}
}
