package sim

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
)

// render builds step n's response as an Anthropic message body, with
// content as served (placeholders minted).
func render(s *Scenario, n int, st Step, content []json.RawMessage) []byte {
	var o rawjson.Object
	header(&o, s, n)
	o.Raw("content", rawjson.ArrayOf(content))
	o.String("stop_reason", stopReason(st, content))
	o.Raw("stop_sequence", json.RawMessage("null"))
	o.Raw("usage", usage(st))
	return o.Bytes()
}

func header(o *rawjson.Object, s *Scenario, n int) {
	o.String("id", fmt.Sprintf("msg_01SimStep%02d", n))
	o.String("type", "message")
	o.String("role", "assistant")
	o.String("model", s.Model)
}

// stream builds step n's response as the Anthropic event stream, one
// element per event, split where a real stream splits it: thinking then its
// signature_delta, text and tool arguments over two deltas each.
func stream(s *Scenario, n int, st Step, content []json.RawMessage) [][]byte {
	var out [][]byte
	event := func(name string, o *rawjson.Object) {
		out = append(out, sse.Write(nil, name, string(o.Bytes())))
	}
	var start rawjson.Object
	start.String("type", "message_start")
	var msg rawjson.Object
	header(&msg, s, n)
	msg.Raw("content", json.RawMessage("[]"))
	msg.Raw("stop_reason", json.RawMessage("null"))
	msg.Raw("stop_sequence", json.RawMessage("null"))
	msg.Raw("usage", usage(st))
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
			deltas = append(deltas, delta("thinking_delta", "thinking", f["thinking"]), delta("signature_delta", "signature", f["signature"]))
		case "text":
			first = json.RawMessage(`{"type":"text","text":""}`)
			text, _ := rawjson.String(f["text"])
			for _, part := range halves(text) {
				deltas = append(deltas, delta("text_delta", "text", rawjson.Quote(part)))
			}
		case "tool_use":
			var b rawjson.Object
			b.String("type", "tool_use")
			b.Raw("id", f["id"])
			b.Raw("name", f["name"])
			b.Raw("input", json.RawMessage("{}"))
			first = b.Bytes()
			for _, part := range halves(string(rawjson.Compact(f["input"]))) {
				deltas = append(deltas, delta("input_json_delta", "partial_json", rawjson.Quote(part)))
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
	d.String("stop_reason", stopReason(st, content))
	d.Raw("stop_sequence", json.RawMessage("null"))
	md.Raw("delta", d.Bytes())
	md.Raw("usage", usage(st))
	event("message_delta", &md)
	var ms rawjson.Object
	ms.String("type", "message_stop")
	event("message_stop", &ms)
	return out
}

func delta(typ, key string, value json.RawMessage) json.RawMessage {
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

func stopReason(st Step, content []json.RawMessage) string {
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

func usage(st Step) json.RawMessage {
	if len(st.Usage) == 0 {
		return json.RawMessage(`{"input_tokens":0,"output_tokens":0}`)
	}
	return rawjson.Compact(st.Usage)
}
