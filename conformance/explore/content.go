package explore

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/llmtck/llmtck/traffic"
)

var systems = []string{
	"You are a concise operations assistant. Use the tools; never guess.",
	"You are a support agent for an online shop <Acme & Co>. Answer briefly.",
	"You help engineers investigate incidents. Think, then use tools.",
}

var prompts = []string{
	"Check the order status and the weather at the delivery address",
	"Search the docs for the retry policy and summarise it",
	"Is it going to rain in Zürich tomorrow?",
	"Look up order A-1042 and tell me when it ships",
	"Find what changed in the last release notes",
}

var answers = []string{
	"Done: everything you asked about is in order.",
	"The order ships tomorrow; the forecast is dry — 18 °C.",
	"Summary: retries wait what retry-after says, then back off.",
	"Nothing changed that affects you.\n\nLet me know if you need more.",
	"Yes — bring an umbrella.",
}

var thoughts = []string{
	"The user wants a status check; call the tools first.",
	"Two lookups are independent, so they can run at once.\n\n",
	"I have the results; answer briefly.",
	"Check the docs before answering <carefully> & precisely.",
}

// tools are the tools every generated scenario registers.
var tools = []fileTool{
	{Name: "lookup_order", Description: "Look up an order by id.", InputSchema: json.RawMessage(`{"type": "object", "properties": {"order_id": {"type": "string"}, "fields": {"type": "array", "items": {"type": "string"}}}, "required": ["order_id"]}`), Result: `{"status":"packed","ships":"tomorrow"}`},
	{Name: "search_docs", Description: "Search the documentation.", InputSchema: json.RawMessage(`{"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["query"]}`), Result: "retry.md: wait what retry-after says, then back off exponentially."},
	{Name: "get_weather", Description: "Weather forecast for a city.", InputSchema: json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string"}}, "required": ["city"]}`), Result: "18 °C, dry"},
}

// cancelTool is the tool a generated user cancels while it runs.
var cancelTool = fileTool{Name: "run_build", Description: "Run the full build; slow.", InputSchema: json.RawMessage(`{"type": "object", "properties": {"target": {"type": "string"}}}`), Result: "build ok", Cancel: true}

// call is one generated tool call.
type call struct {
	id, name string
	args     string // JSON, keys not sorted, spacing not canonical
}

// args writes arguments for tool name, unique to this call, with the keys
// out of order and the spacing varied: a harness must pass them on as they
// came.
func (g *gen) argsFor(name string) string {
	g.args++
	n := g.args
	var k1, v1, k2, v2 string
	switch name {
	case "lookup_order":
		k1, v1, k2, v2 = "order_id", strconv.Quote(fmt.Sprintf("A-%d", 1000+n)), "fields", `["status", "ships"]`
	case "search_docs":
		k1, v1, k2, v2 = "query", strconv.Quote(fmt.Sprintf("retry policy <%d> & backoff", n)), "limit", strconv.Itoa(n)
	case "run_build":
		return fmt.Sprintf(`{"target": "//svc:%d"}`, n)
	default:
		k1, v1, k2, v2 = "unit", `"celsius"`, "city", strconv.Quote(fmt.Sprintf("Zürich %d", n))
	}
	switch g.r.IntN(3) {
	case 0:
		return fmt.Sprintf(`{"%s":%s,"%s":%s}`, k2, v2, k1, v1)
	case 1:
		return fmt.Sprintf(`{ "%s" : %s,  "%s": %s }`, k2, v2, k1, v1)
	}
	return fmt.Sprintf("{\n  \"%s\": %s,\n  \"%s\": %s\n}", k1, v1, k2, v2)
}

// step builds one step: n tool calls (the last the cancel tool's when
// cancel), or
// a final answer (text, or a random one when "").
func (g *gen) step(n int, cancel bool, text string) fileStep {
	var calls []call
	for k := range n {
		name := tools[g.r.IntN(len(tools))].Name
		if cancel && k == n-1 {
			name = cancelTool.Name // the last of parallel calls is the one stopped
		}
		calls = append(calls, call{name: name, args: g.argsFor(name)})
	}
	if n == 0 && text == "" {
		text = g.pick(answers)
	}
	thought := g.pick(thoughts)
	lead := ""
	if n > 0 && g.chance(0.4) {
		lead = "Let me check."
	}
	var content []json.RawMessage
	add := func(format string, a ...any) { content = append(content, json.RawMessage(fmt.Sprintf(format, a...))) }
	q := strconv.Quote
	switch g.w {
	case traffic.WireAnthropic:
		switch {
		case !g.thinkingOn:
		case g.chance(0.15):
			add(`{"type": "redacted_thinking", "data": "{{mint}}"}`)
		default:
			add(`{"type": "thinking", "thinking": %s, "signature": "{{mint}}"}`, q(thought))
		}
		if lead != "" {
			add(`{"type": "text", "text": %s}`, q(lead))
		}
		for i := range calls {
			calls[i].id = g.id("toolu_01")
			add(`{"type": "tool_use", "id": %q, "name": %q, "input": %s}`, calls[i].id, calls[i].name, calls[i].args)
		}
		if n == 0 {
			add(`{"type": "text", "text": %s}`, q(text))
		}
	case traffic.WireBedrock:
		if g.thinkingOn {
			add(`{"reasoningContent": {"reasoningText": {"text": %s, "signature": "{{mint}}"}}}`, q(thought))
		}
		if lead != "" {
			add(`{"text": %s}`, q(lead))
		}
		for i := range calls {
			calls[i].id = g.id("tooluse_")
			add(`{"toolUse": {"toolUseId": %q, "name": %q, "input": %s}}`, calls[i].id, calls[i].name, calls[i].args)
		}
		if n == 0 {
			add(`{"text": %s}`, q(text))
		}
	case traffic.WireGemini:
		if g.chance(0.5) {
			add(`{"text": %s, "thought": true}`, q(thought))
		}
		for i := range calls {
			sig := ""
			if i == 0 {
				sig = `, "thoughtSignature": "{{mint}}"`
			}
			add(`{"functionCall": {"name": %q, "args": %s}%s}`, calls[i].name, calls[i].args, sig)
		}
		if n == 0 {
			add(`{"text": %s}`, q(text))
			add(`{"text": "", "thoughtSignature": "{{mint}}"}`)
		}
	case traffic.WireOpenAI:
		var tc []string
		for i := range calls {
			calls[i].id = g.id("call_")
			tc = append(tc, fmt.Sprintf(`{"id": %q, "type": "function", "function": {"name": %q, "arguments": %s}}`, calls[i].id, calls[i].name, q(calls[i].args)))
		}
		switch {
		case n == 0:
			add(`{"role": "assistant", "content": %s}`, q(text))
		case lead != "":
			add(`{"role": "assistant", "content": %s, "tool_calls": [%s]}`, q(lead), join(tc))
		default:
			add(`{"role": "assistant", "content": null, "tool_calls": [%s]}`, join(tc))
		}
	case traffic.WireResponses:
		add(`{"id": %q, "type": "reasoning", "encrypted_content": "{{mint}}", "summary": [{"type": "summary_text", "text": %s}]}`, g.id("rs_"), q(thought))
		for i := range calls {
			calls[i].id = g.id("call_")
			add(`{"id": %q, "type": "function_call", "status": "completed", "arguments": %s, "call_id": %q, "name": %q}`, g.id("fc_"), q(calls[i].args), calls[i].id, calls[i].name)
		}
		if n == 0 {
			add(`{"id": %q, "type": "message", "status": "completed", "role": "assistant", "content": [{"type": "output_text", "annotations": [], "text": %s}]}`, g.id("msg_"), q(text))
		}
	}
	return fileStep{Content: content}
}

func join(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
