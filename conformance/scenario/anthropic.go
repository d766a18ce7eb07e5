package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/providers"
	antwire "github.com/llmtck/llmtck/providers/anthropic"
	"github.com/llmtck/llmtck/traffic"
)

// anthropic serves the Messages API: POST /v1/messages, content blocks in
// steps, thinking signatures and redacted data minted.
type anthropic struct{}

func (anthropic) endpoint(r *http.Request) (bool, *Fault) {
	switch {
	case r.Method != http.MethodPost || r.URL.Path != "/v1/messages":
		return false, &Fault{Status: http.StatusNotFound, Message: "Not Found", Detail: r.Method + " " + r.URL.Path + ": the Messages API is POST /v1/messages"}
	case r.Header.Get("Anthropic-Version") == "":
		return false, &Fault{Status: http.StatusBadRequest, Message: "anthropic-version: header is required", Detail: "no anthropic-version header"}
	}
	return false, nil
}

// checkStep decodes the step the way a client would, with placeholders
// filled in, so a scenario cannot serve what the codec does not read.
func (anthropic) checkStep(s *Scenario, st Step, tools map[string]bool) error {
	for j, raw := range st.Content {
		var b struct {
			Type      string  `json:"type"`
			Signature *string `json:"signature"`
			Data      *string `json:"data"`
			Name      string  `json:"name"`
		}
		if err := json.Unmarshal(raw, &b); err != nil {
			return fmt.Errorf("content[%d]: want a block object: %v", j, err)
		}
		switch {
		case b.Type == "thinking" && (b.Signature == nil || *b.Signature != Placeholder):
			return fmt.Errorf("content[%d].signature: want %q, which the simulator mints", j, Placeholder)
		case b.Type == "redacted_thinking" && (b.Data == nil || *b.Data != Placeholder):
			return fmt.Errorf("content[%d].data: want %q, which the simulator mints", j, Placeholder)
		case b.Type == "tool_use" && !tools[b.Name]:
			return fmt.Errorf("content[%d].name: tool %q is not among the scenario's tools", j, b.Name)
		}
	}
	filled := fillAll(st.Content)
	codec := providers.For(traffic.WireAnthropic)
	for _, body := range [][]byte{antRender(st, 0, filled), bytes.Join(antStream(st, 0, filled), nil)} {
		resp, err := codec.DecodeResponse(http.StatusOK, nil, body)
		if err != nil {
			return fmt.Errorf("content: does not decode as an anthropic response: %v", err)
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

// fillAll replaces every placeholder with a dummy token, for validation.
func fillAll(content []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(content))
	for i, c := range content {
		out[i] = bytes.ReplaceAll(c, []byte(`"`+Placeholder+`"`), []byte(`"x"`))
	}
	return out
}

// respond mints step n's signatures and redacted data, each bound to req
// and to the blocks before it, and renders the response.
func (anthropic) respond(m *Minter, s *Scenario, n int, req *traffic.Request, stream bool) ([][]byte, error) {
	st := s.Steps[n]
	resp, err := providers.For(traffic.WireAnthropic).DecodeResponse(http.StatusOK, nil, antRender(st, n, fillAll(st.Content)))
	if err != nil || len(resp.Output) != 1 || len(resp.Output[0].Blocks) != len(st.Content) {
		return nil, fmt.Errorf("step %d does not decode: %v", n, err)
	}
	content := mintReasoning(m, s, n, req, resp.Output[0].Blocks)
	if stream {
		return antStream(st, n, content), nil
	}
	return [][]byte{antRender(st, n, content)}, nil
}

// mintReasoning fills step n's placeholders: each thinking block's
// signature and each redacted block's data, minted for its content and
// bound to req and to the blocks before it in blocks, the step decoded.
func mintReasoning(m *Minter, s *Scenario, n int, req *traffic.Request, blocks []traffic.Block) []json.RawMessage {
	st := s.Steps[n]
	content := make([]json.RawMessage, len(st.Content))
	placeholder := []byte(`"` + Placeholder + `"`)
	for j, raw := range st.Content {
		content[j] = raw
		var tok string
		switch blocks[j].Type {
		case traffic.BlockThinking:
			tok = m.mint(req, len(req.Messages), blocks[:j], []byte(blocks[j].Text), nil)
			blocks[j].Signature = rawjson.Quote(tok)
		case traffic.BlockRedacted:
			tok = m.mint(req, len(req.Messages), blocks[:j], nil, m.Nonce(fmt.Sprintf("redacted %s %d %d", s.Name, n, j)))
			blocks[j].Data = rawjson.Quote(tok)
		default:
			continue
		}
		content[j] = bytes.Replace(raw, placeholder, rawjson.Quote(tok), 1)
	}
	return content
}

// verify checks every thinking signature and redacted payload req echoes:
// an altered or foreign token is ANT-THINK-003's "Invalid signature"; a
// genuine one whose history changed, or that moved, is ANT-THINK-009's
// binding error.
func (anthropic) verify(m *Minter, req *traffic.Request) *Fault {
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
			loc := fmt.Sprintf("request.messages[%d].content[%d]", i, j)
			switch m.check(raw, req, i, j, payload) {
			case forged:
				return &Fault{Check: "ANT-THINK-003", Location: loc,
					Detail: fmt.Sprintf("the %s payload at %s is not one the simulator minted for this content", b.Type, loc)}
			case rebound:
				f := &Fault{Check: "ANT-THINK-009", Location: loc,
					Detail: fmt.Sprintf("the %s block at %s was minted after a different history: the system prompt, tools, an earlier message or an earlier block changed, or the block moved", b.Type, loc)}
				switch {
				case !antwire.PrefixChecked(req.Model):
					f.Warning = true
					f.Detail += fmt.Sprintf(" (a warning: %s does not run the prefix check; models with preserved thinking do)", req.Model)
				case antwire.PrefixMismatchBehavior(req) == "drop_block":
					f.Warning = true
					f.Detail += " (a warning: prefix_mismatch_behavior is drop_block, so the API drops the block instead of refusing)"
				}
				return f
			}
		}
	}
	return nil
}

// render builds step n's response as an Anthropic message body, with
// content as served (placeholders minted).
func antRender(st Step, n int, content []json.RawMessage) []byte {
	var o rawjson.Object
	antHeader(&o, st, n)
	o.Raw("content", rawjson.ArrayOf(content))
	o.String("stop_reason", antStopReason(st, content))
	o.Raw("stop_sequence", json.RawMessage("null"))
	o.Raw("usage", antUsage(st))
	return o.Bytes()
}

func antHeader(o *rawjson.Object, st Step, n int) {
	o.String("id", fmt.Sprintf("msg_01SimStep%02d", n))
	o.String("type", "message")
	o.String("role", "assistant")
	o.String("model", st.Model)
}

// stream builds step n's response as the Anthropic event stream, one
// element per event, split where a real stream splits it: thinking then its
// signature_delta, text and tool arguments over two deltas each.
func antStream(st Step, n int, content []json.RawMessage) [][]byte {
	var out [][]byte
	event := func(name string, o *rawjson.Object) {
		out = append(out, sse.Write(nil, name, string(o.Bytes())))
	}
	var start rawjson.Object
	start.String("type", "message_start")
	var msg rawjson.Object
	antHeader(&msg, st, n)
	msg.Raw("content", json.RawMessage("[]"))
	msg.Raw("stop_reason", json.RawMessage("null"))
	msg.Raw("stop_sequence", json.RawMessage("null"))
	msg.Raw("usage", antUsage(st))
	start.Raw("message", msg.Bytes())
	event("message_start", &start)
	var ping rawjson.Object
	ping.String("type", "ping")
	event("ping", &ping)

	for i, raw := range content {
		f := fields(raw)
		var first json.RawMessage
		var deltas []json.RawMessage
		switch typ, _ := rawjson.String(f["type"]); typ {
		case "thinking":
			first = json.RawMessage(`{"type":"thinking","thinking":"","signature":""}`)
			deltas = append(deltas, antDelta("thinking_delta", "thinking", f["thinking"]), antDelta("signature_delta", "signature", f["signature"]))
		case "text":
			first = json.RawMessage(`{"type":"text","text":""}`)
			text, _ := rawjson.String(f["text"])
			for _, part := range halves(text) {
				deltas = append(deltas, antDelta("text_delta", "text", rawjson.Quote(part)))
			}
		case "tool_use":
			var b rawjson.Object
			b.String("type", "tool_use")
			b.Raw("id", f["id"])
			b.Raw("name", f["name"])
			b.Raw("input", json.RawMessage("{}"))
			first = b.Bytes()
			for _, part := range halves(string(rawjson.Compact(f["input"]))) {
				deltas = append(deltas, antDelta("input_json_delta", "partial_json", rawjson.Quote(part)))
			}
		default: // redacted_thinking and the rest arrive whole
			first = raw
		}
		var bs rawjson.Object
		bs.String("type", "content_block_start")
		bs.Int("index", i)
		bs.Raw("content_block", first)
		event("content_block_start", &bs)
		for _, d := range deltas {
			var bd rawjson.Object
			bd.String("type", "content_block_delta")
			bd.Int("index", i)
			bd.Raw("delta", d)
			event("content_block_delta", &bd)
		}
		var stop rawjson.Object
		stop.String("type", "content_block_stop")
		stop.Int("index", i)
		event("content_block_stop", &stop)
	}

	var md rawjson.Object
	md.String("type", "message_delta")
	var d rawjson.Object
	d.String("stop_reason", antStopReason(st, content))
	d.Raw("stop_sequence", json.RawMessage("null"))
	md.Raw("delta", d.Bytes())
	md.Raw("usage", antUsage(st))
	event("message_delta", &md)
	var ms rawjson.Object
	ms.String("type", "message_stop")
	event("message_stop", &ms)
	return out
}

func antDelta(typ, key string, value json.RawMessage) json.RawMessage {
	var o rawjson.Object
	o.String("type", typ)
	o.Raw(key, value)
	return o.Bytes()
}

// halves splits s in two at a character boundary; a short s stays whole.
func halves(s string) []string {
	mid := len(s) / 2
	for mid > 0 && !utf8.RuneStart(s[mid]) {
		mid--
	}
	if mid == 0 {
		return []string{s}
	}
	return []string{s[:mid], s[mid:]}
}

func fields(raw json.RawMessage) map[string]json.RawMessage {
	fs, _ := rawjson.Fields(raw) // validated when the scenario was parsed
	m := make(map[string]json.RawMessage, len(fs))
	for _, f := range fs {
		m[f.Key] = f.Value
	}
	return m
}

func antStopReason(st Step, content []json.RawMessage) string {
	if st.StopReason != "" {
		return st.StopReason
	}
	for _, c := range content {
		if t, _ := rawjson.String(fields(c)["type"]); t == "tool_use" {
			return "tool_use"
		}
	}
	return "end_turn"
}

func antUsage(st Step) json.RawMessage {
	if len(st.Usage) == 0 {
		return json.RawMessage(`{"input_tokens":0,"output_tokens":0}`)
	}
	return rawjson.Compact(st.Usage)
}
