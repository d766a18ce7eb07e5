package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/internal/eventstream"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// bedrock serves Amazon Bedrock Converse: POST /model/{modelId}/converse
// (a JSON document) and /converse-stream (an AWS event stream). Steps hold
// Converse content blocks ({"text"}, {"toolUse"}, {"reasoningContent"});
// reasoning signatures and redacted content are minted.
type bedrock struct{}

// EventStreamType is the content type of an AWS event stream.
const EventStreamType = "application/vnd.amazon.eventstream"

func (bedrock) endpoint(r *http.Request) (bool, *Fault) {
	p := r.URL.Path
	model, op, ok := strings.Cut(strings.TrimPrefix(p, "/model/"), "/")
	switch {
	case r.Method != http.MethodPost || !strings.HasPrefix(p, "/model/") || !ok || model == "" || op != "converse" && op != "converse-stream":
		return false, &Fault{Status: http.StatusNotFound, Message: "UnknownOperationException",
			Detail: r.Method + " " + p + ": Converse is POST /model/{modelId}/converse or /converse-stream"}
	}
	return op == "converse-stream", nil
}

// checkStep decodes the step as a client would, placeholders filled in.
func (bedrock) checkStep(s *Scenario, st Step, tools map[string]bool) error {
	for j, raw := range st.Content {
		var b struct {
			ToolUse *struct {
				Name string `json:"name"`
			} `json:"toolUse"`
			Reasoning *struct {
				Text *struct {
					Signature *string `json:"signature"`
				} `json:"reasoningText"`
				Redacted *string `json:"redactedContent"`
			} `json:"reasoningContent"`
		}
		if err := json.Unmarshal(raw, &b); err != nil {
			return fmt.Errorf("content[%d]: want a content block object: %v", j, err)
		}
		switch {
		case b.Reasoning != nil && b.Reasoning.Text != nil && (b.Reasoning.Text.Signature == nil || *b.Reasoning.Text.Signature != Placeholder):
			return fmt.Errorf("content[%d].reasoningContent.reasoningText.signature: want %q, which the simulator mints", j, Placeholder)
		case b.Reasoning != nil && b.Reasoning.Text == nil && (b.Reasoning.Redacted == nil || *b.Reasoning.Redacted != Placeholder):
			return fmt.Errorf("content[%d].reasoningContent.redactedContent: want %q, which the simulator mints", j, Placeholder)
		case b.ToolUse != nil && !tools[b.ToolUse.Name]:
			return fmt.Errorf("content[%d].toolUse.name: tool %q is not among the scenario's tools", j, b.ToolUse.Name)
		}
	}
	filled := fillAll(st.Content)
	codec := providers.For(traffic.WireBedrock)
	for _, body := range [][]byte{bdrRender(st, filled), bytes.Join(bdrStream(st, filled), nil)} {
		resp, err := codec.DecodeResponse(http.StatusOK, nil, body)
		if err != nil {
			return fmt.Errorf("content: does not decode as a Converse response: %v", err)
		}
		if resp.Stream != nil && (!resp.Stream.Complete || len(resp.Stream.Issues) > 0) {
			return fmt.Errorf("content: streams with issues %v", resp.Stream.Issues)
		}
		if len(resp.Output) != 1 || len(resp.Output[0].Blocks) != len(st.Content) {
			return fmt.Errorf("content: decodes to %d messages, not one with %d blocks", len(resp.Output), len(st.Content))
		}
	}
	return nil
}

// respond mints step n's signatures and redacted content, bound to req and
// to the blocks before them, and renders the response.
func (bedrock) respond(m *Minter, s *Scenario, n int, req *traffic.Request, stream bool) ([][]byte, error) {
	st := s.Steps[n]
	resp, err := providers.For(traffic.WireBedrock).DecodeResponse(http.StatusOK, nil, bdrRender(st, fillAll(st.Content)))
	if err != nil || len(resp.Output) != 1 || len(resp.Output[0].Blocks) != len(st.Content) {
		return nil, fmt.Errorf("step %d does not decode: %v", n, err)
	}
	content := mintReasoning(m, s, n, req, resp.Output[0].Blocks)
	if stream {
		return bdrStream(st, content), nil
	}
	return [][]byte{bdrRender(st, content)}, nil
}

// verify checks every reasoning signature and redacted content req echoes.
// A token the simulator did not mint for that content is BDR-THINK-001's
// refusal. A genuine token after a changed history is accepted: no public
// record shows Bedrock binding reasoning to the history before it.
func (bedrock) verify(m *Minter, req *traffic.Request) *Fault {
	for i, msg := range req.Messages {
		if msg.Role != traffic.RoleAssistant {
			continue
		}
		for j, b := range msg.Blocks {
			raw, payload := b.Signature, []byte(b.Text)
			if b.Type == traffic.BlockRedacted {
				raw, payload = b.Data, nil
			}
			if (b.Type != traffic.BlockThinking && b.Type != traffic.BlockRedacted) || len(raw) == 0 {
				continue
			}
			if m.check(raw, req, i, j, payload) == forged {
				loc := fmt.Sprintf("request.messages[%d].content[%d]", i, j)
				return &Fault{Check: "BDR-THINK-001", Location: loc,
					Detail: fmt.Sprintf("the reasoning at %s is not what the simulator produced for this content (signature or text changed)", loc)}
			}
		}
	}
	return nil
}

// bdrRender builds a step's Converse response document.
func bdrRender(st Step, content []json.RawMessage) []byte {
	var msg rawjson.Object
	msg.String("role", "assistant")
	msg.Raw("content", rawjson.ArrayOf(content))
	var output rawjson.Object
	output.Raw("message", msg.Bytes())
	var o rawjson.Object
	o.Raw("output", output.Bytes())
	o.String("stopReason", bdrStopReason(st, content))
	o.Raw("usage", bdrUsage(st))
	o.Raw("metrics", json.RawMessage(`{"latencyMs":120}`))
	return o.Bytes()
}

// bdrStream builds a step's ConverseStream response, one event-stream frame
// per element, split as Bedrock splits it: text and tool input over two
// deltas each, reasoning text then its signature.
func bdrStream(st Step, content []json.RawMessage) [][]byte {
	var out [][]byte
	frame := func(typ string, payload []byte) {
		b, err := eventstream.Append(nil, eventstream.Event(typ, payload))
		if err == nil { // a payload over 16 MiB cannot come from a scenario
			out = append(out, b)
		}
	}
	frame("messageStart", []byte(`{"role":"assistant"}`))
	for i, raw := range content {
		f := fields(raw)
		delta := func(d json.RawMessage) {
			var o rawjson.Object
			o.Int("contentBlockIndex", i)
			o.Raw("delta", d)
			frame("contentBlockDelta", o.Bytes())
		}
		member := func(key string, v json.RawMessage) json.RawMessage {
			var o rawjson.Object
			o.Raw(key, v)
			return o.Bytes()
		}
		switch {
		case f["text"] != nil:
			text, _ := rawjson.String(f["text"])
			for _, part := range halves(text) {
				delta(member("text", rawjson.Quote(part)))
			}
		case f["toolUse"] != nil:
			tu := fields(f["toolUse"])
			var start rawjson.Object
			start.Raw("toolUseId", tu["toolUseId"])
			start.Raw("name", tu["name"])
			var o rawjson.Object
			o.Int("contentBlockIndex", i)
			o.Raw("start", member("toolUse", start.Bytes()))
			frame("contentBlockStart", o.Bytes())
			for _, part := range halves(string(rawjson.Compact(tu["input"]))) {
				delta(member("toolUse", member("input", rawjson.Quote(part))))
			}
		case f["reasoningContent"] != nil:
			rc := fields(f["reasoningContent"])
			if rt := rc["reasoningText"]; rt != nil {
				rf := fields(rt)
				text, _ := rawjson.String(rf["text"])
				for _, part := range halves(text) {
					delta(member("reasoningContent", member("text", rawjson.Quote(part))))
				}
				delta(member("reasoningContent", member("signature", rf["signature"])))
			} else {
				delta(member("reasoningContent", member("redactedContent", rc["redactedContent"])))
			}
		}
		var stop rawjson.Object
		stop.Int("contentBlockIndex", i)
		frame("contentBlockStop", stop.Bytes())
	}
	var ms rawjson.Object
	ms.String("stopReason", bdrStopReason(st, content))
	frame("messageStop", ms.Bytes())
	var md rawjson.Object
	md.Raw("usage", bdrUsage(st))
	md.Raw("metrics", json.RawMessage(`{"latencyMs":120}`))
	frame("metadata", md.Bytes())
	return out
}

func bdrStopReason(st Step, content []json.RawMessage) string {
	if st.StopReason != "" {
		return st.StopReason
	}
	for _, c := range content {
		if fields(c)["toolUse"] != nil {
			return "tool_use"
		}
	}
	return "end_turn"
}

func bdrUsage(st Step) json.RawMessage {
	if len(st.Usage) == 0 {
		return json.RawMessage(`{"inputTokens":0,"outputTokens":0,"totalTokens":0}`)
	}
	return rawjson.Compact(st.Usage)
}
