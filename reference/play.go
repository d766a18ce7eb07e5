package reference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// conversation is what the application keeps between turns: the history,
// and for each message the wire that produced it ("" for messages the
// application wrote: the system prompt, user prompts, tool results).
type conversation struct {
	msgs   []traffic.Message
	origin []source
}

// source is where a message of the conversation came from: the wire and
// model whose response it was; zero for the application's own messages.
type source struct {
	wire  traffic.Wire
	model string
}

func (c *conversation) add(from source, ms ...traffic.Message) {
	for _, m := range ms {
		c.msgs = append(c.msgs, m)
		c.origin = append(c.origin, from)
	}
}

// Play runs the session's turns in order with the reference harness,
// keeping the conversation from turn to turn as an application would: each
// turn's prompt goes to the turn's provider with the history so far,
// compacted first when the turn asks, retried once with ephemeral feedback
// when its answer does not match the turn's schema, and with reasoning
// from other providers routed by its replay tags. A turn the user cancels
// leaves a closed history, and the next turn continues from it. The error
// is the first the harness reported; a cancelled turn is not one.
func Play(ctx context.Context, s *simulator.Session, opts Options) error {
	b := opts.Variant.breaks()
	var conv conversation
	if s.System != "" {
		conv.add(source{}, traffic.Message{Role: traffic.RoleSystem, Blocks: []traffic.Block{textBlock(s.System)}})
	}
	for i, turn := range s.Turns {
		if turn.Compact != "" {
			if err := compact(&conv, turn.Compact); err != nil {
				return fmt.Errorf("reference: turn %d: %w", i+1, err)
			}
		}
		conv.add(source{}, userMessage(turn.Prompt, false))
		if err := playTurn(ctx, s, opts, b, &conv, turn); err != nil {
			return fmt.Errorf("reference: turn %d (%s): %w", i+1, turn.Provider, err)
		}
	}
	return nil
}

// playTurn runs one turn to its final answer (or its cancellation) and
// extends conv with what it added.
func playTurn(ctx context.Context, s *simulator.Session, opts Options, b breaks, conv *conversation, turn simulator.Turn) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.OnCancel(cancel)
	defer s.OnCancel(nil)

	h, err := harness.New(harness.Config{
		BaseURL: s.BaseURL(turn.Provider), Wire: turn.Provider, Model: turn.Model, MaxTokens: s.MaxTokens,
		Stream: opts.Stream, Thinking: thinkingFor(turn.Provider, s.Thinking),
		HTTPClient: retryBreak(ctx, b.client(opts.HTTPClient, turn.Provider), opts.Variant, turn.Provider, s),
		ReplayTags: b.replayTags(turn.Provider), Retries: 2, RetryBackoff: 2 * time.Millisecond,
	})
	if err != nil {
		return err
	}
	tools := Tools(s.Tools)
	start := adapt(conv, source{turn.Provider, turn.Model}, b)
	added, ended, err := run(ctx, h, start, tools, b)
	if err != nil {
		return err
	}
	if ended == engine.EndFinal && len(turn.OutputSchema) > 0 && !turn.Valid(finalText(added)) {
		// Retry once: the failed answer stays in this request's context,
		// the feedback is ephemeral, and only the accepted answer is kept.
		retry := append(append(start, added...), userMessage(turn.Feedback, true))
		accepted, _, err := run(ctx, h, retry, tools, b)
		if err != nil {
			return err
		}
		if b.persistEphemeral {
			added = append(append(added, userMessage(turn.Feedback, false)), accepted...)
		} else {
			added = accepted
		}
	}
	conv.add(source{turn.Provider, turn.Model}, added...)
	return nil
}

// run runs the harness loop from msgs and returns the messages it added
// to the history and why it ended. Ephemeral messages among msgs are sent
// once and are not part of the history.
func run(ctx context.Context, h *harness.Harness, msgs []traffic.Message, tools []engine.ToolDefinition, b breaks) ([]traffic.Message, engine.EndReason, error) {
	r, err := h.Start(ctx, harness.Params{Messages: msgs, Tools: tools})
	if err != nil {
		return nil, "", err
	}
	var errs []error
	for ev := range r.Events() {
		switch ev := ev.(type) {
		case engine.RelayEvent:
			ev.Respond(engine.PermissionResponse{Approved: true})
		case engine.ErrorEvent:
			errs = append(errs, ev.Err)
		}
	}
	kept := 0
	for _, m := range msgs {
		if !m.Ephemeral {
			kept++
		}
	}
	hist := r.Transcript().Messages()
	if len(hist) < kept {
		return nil, r.EndReason(), fmt.Errorf("the harness history shrank from %d to %d messages", kept, len(hist))
	}
	var added []traffic.Message
	for i := kept; i < len(hist); i++ {
		added = append(added, hist[i])
		if r.Transcript().Note(i).Truncated {
			// The partial answer is kept (AssistantTruncated of
			// docs/reference-model.md, seed 001); the model is told it was cut
			// off, or it would read the half answer as one it finished
			// (ANT-CANCEL-002).
			added = append(added, userMessage(InterruptedNote, false))
		}
	}
	switch r.EndReason() {
	case engine.EndFinal, engine.EndCancelled:
		return added, r.EndReason(), nil
	}
	if len(errs) == 0 {
		errs = append(errs, fmt.Errorf("the run ended with %s", r.EndReason()))
	}
	return added, r.EndReason(), errors.Join(errs...)
}

// Tools are the session's tools as the reference engine registers them:
// each returns its canned result; a call the user cancels returns ctx's
// error, which the harness turns into a cancelled result.
func Tools(tools []simulator.Tool) []engine.ToolDefinition {
	var out []engine.ToolDefinition
	for _, t := range tools {
		out = append(out, engine.ToolDefinition{
			Name: t.Name, Description: t.Description, Schema: t.InputSchema,
			Execute: func(ctx context.Context, args json.RawMessage, _ engine.ToolContext) (engine.ToolExecutionResult, error) {
				res, err := t.Call(ctx, args)
				return engine.ToolExecutionResult{Context: res}, err
			},
		})
	}
	return out
}

// thinkingFor is the session's thinking configuration for a provider that
// takes one: only the Messages API has this request field.
func thinkingFor(w traffic.Wire, t *traffic.Thinking) *traffic.Thinking {
	if w != traffic.WireAnthropic && w != traffic.WireBedrock {
		return nil
	}
	return t
}

// compact replaces the history after the system prompt with summary,
// through the engine's compaction mutation, at a turn boundary: no tool
// call waits for its result, so no pair is split.
func compact(conv *conversation, summary string) error {
	tr, err := engine.NewTranscript(conv.msgs...)
	if err != nil {
		return err
	}
	if err := tr.Apply(engine.ContextSummary{Summary: userMessage(summary, false)}); err != nil {
		return err
	}
	msgs := tr.Messages()
	*conv = conversation{}
	for _, m := range msgs {
		conv.add(source{}, m)
	}
	return nil
}

// finalText is the text of the last assistant message among msgs.
func finalText(msgs []traffic.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != traffic.RoleAssistant {
			continue
		}
		var s string
		for _, b := range msgs[i].Blocks {
			if b.Type == traffic.BlockText {
				s += b.Text
			}
		}
		return s
	}
	return ""
}

func textBlock(s string) traffic.Block { return traffic.Block{Type: traffic.BlockText, Text: s} }

// InterruptedNote follows an answer the user stopped mid-stream.
const InterruptedNote = "[The user interrupted the previous answer before it finished.]"

func userMessage(s string, ephemeral bool) traffic.Message {
	return traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{textBlock(s)}, Ephemeral: ephemeral}
}
