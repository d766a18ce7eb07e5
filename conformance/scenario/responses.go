package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// responses serves the OpenAI Responses API: POST /v1/responses, output
// items in steps (reasoning, function_call, message), encrypted reasoning
// minted. OpenAI does not bind encrypted_content to the history around it,
// so neither does the simulator: a token is verified on its own, and moving
// a reasoning item is left to the catalogue (OAI-RSN-001).
type responses struct{}

func (responses) endpoint(r *http.Request) (bool, *Fault) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
		return false, &Fault{Status: http.StatusNotFound, Message: fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path),
			Detail: r.Method + " " + r.URL.Path + ": the Responses API is POST /v1/responses"}
	}
	return false, nil
}

// rspItem is what checkStep reads of one output item.
type rspItem struct {
	Type             string          `json:"type"`
	ID               string          `json:"id"`
	EncryptedContent *string         `json:"encrypted_content"`
	Summary          json.RawMessage `json:"summary"`
	CallID           string          `json:"call_id"`
	Name             string          `json:"name"`
	Arguments        *string         `json:"arguments"`
	Role             string          `json:"role"`
	Content          []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	} `json:"content"`
}

// checkStep checks each item's shape as the real API writes it, then
// decodes the rendered body and stream with the codec, placeholders filled
// in, so a scenario cannot serve what a client would not read.
func (responses) checkStep(s *Scenario, st Step, tools map[string]bool) error {
	for j, raw := range st.Content {
		if err := rspCheckItem(raw, tools); err != nil {
			return fmt.Errorf("content[%d]%v", j, err)
		}
	}
	switch st.StopReason {
	case "", "max_output_tokens", "content_filter":
	default:
		return fmt.Errorf("stop_reason: want \"\" (completed), max_output_tokens or content_filter, got %q", st.StopReason)
	}
	filled := fillAll(st.Content)
	for j := range filled {
		filled[j] = rawjson.Compact(filled[j])
	}
	req := &traffic.Request{Wire: traffic.WireResponses}
	codec := providers.For(traffic.WireResponses)
	for _, body := range [][]byte{rspRender(s, st, 0, req, filled), bytes.Join(rspStream(s, st, 0, req, filled), nil)} {
		resp, err := codec.DecodeResponse(http.StatusOK, nil, body)
		if err != nil {
			return fmt.Errorf("content: does not decode as a responses response: %v", err)
		}
		if resp.Stream != nil && (!resp.Stream.Complete || len(resp.Stream.Issues) > 0) {
			return fmt.Errorf("content: streams with issues %v", resp.Stream.Issues)
		}
		if len(resp.Output) != len(st.Content) {
			return fmt.Errorf("content: decodes to %d output items, not %d", len(resp.Output), len(st.Content))
		}
	}
	return nil
}

// rspCheckItem tells what is wrong with one output item; the error starts
// with the field at fault (".call_id: …") or ": " for the item as a whole.
func rspCheckItem(raw json.RawMessage, tools map[string]bool) error {
	var it rspItem
	if err := json.Unmarshal(raw, &it); err != nil {
		return fmt.Errorf(": want an output item object: %v", err)
	}
	switch it.Type {
	case "reasoning":
		switch {
		case !strings.HasPrefix(it.ID, "rs_"):
			return fmt.Errorf(".id: want a reasoning item id rs_…, got %q", it.ID)
		case it.EncryptedContent == nil || *it.EncryptedContent != Placeholder:
			return fmt.Errorf(".encrypted_content: want %q, which the simulator mints", Placeholder)
		case rawjson.Kind(it.Summary) != "array":
			return fmt.Errorf(".summary: want an array of summary_text parts")
		}
		var parts []struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if err := json.Unmarshal(it.Summary, &parts); err != nil {
			return fmt.Errorf(".summary: want an array of summary_text parts: %v", err)
		}
		for k, p := range parts {
			if p.Type != "summary_text" || p.Text == nil {
				return fmt.Errorf(".summary[%d]: want {\"type\":\"summary_text\",\"text\":…}", k)
			}
		}
	case "function_call":
		switch {
		case !strings.HasPrefix(it.ID, "fc_"):
			return fmt.Errorf(".id: want a function call item id fc_…, got %q", it.ID)
		case !strings.HasPrefix(it.CallID, "call_"):
			return fmt.Errorf(".call_id: want call_…, got %q", it.CallID)
		case !tools[it.Name]:
			return fmt.Errorf(".name: tool %q is not among the scenario's tools", it.Name)
		case it.Arguments == nil || !rawjson.Valid([]byte(*it.Arguments)) || rawjson.Kind([]byte(*it.Arguments)) != "object":
			return fmt.Errorf(".arguments: want a string holding a JSON object")
		}
	case "message":
		switch {
		case !strings.HasPrefix(it.ID, "msg_"):
			return fmt.Errorf(".id: want a message item id msg_…, got %q", it.ID)
		case it.Role != "assistant":
			return fmt.Errorf(".role: want \"assistant\", got %q", it.Role)
		case len(it.Content) == 0:
			return fmt.Errorf(".content: want at least one output_text part")
		}
		for k, p := range it.Content {
			if p.Type != "output_text" || p.Text == nil {
				return fmt.Errorf(".content[%d]: want {\"type\":\"output_text\",\"text\":…}", k)
			}
		}
	default:
		return fmt.Errorf(".type: want reasoning, function_call or message, got %q", it.Type)
	}
	return nil
}

// respond mints step n's encrypted reasoning and renders the response.
func (responses) respond(m *Minter, s *Scenario, n int, req *traffic.Request, stream bool) ([][]byte, error) {
	st := s.Steps[n]
	content := make([]json.RawMessage, len(st.Content))
	for j, raw := range st.Content {
		content[j] = rawjson.Compact(raw)
		if t, _ := rawjson.String(fields(raw)["type"]); t != "reasoning" {
			continue
		}
		nonce := m.Nonce(fmt.Sprintf("encrypted_content %s %d %d", s.Name, n, j))
		tok := m.mint(rspUnbound, 0, nil, nil, nonce)
		content[j] = rspRewrite(content[j], map[string]json.RawMessage{"encrypted_content": rawjson.Quote(tok)})
	}
	if stream {
		return rspStream(s, st, n, req, content), nil
	}
	return [][]byte{rspRender(s, st, n, req, content)}, nil
}

// rspUnbound is the history an encrypted_content token is minted after and
// verified against: none, as OpenAI binds it to nothing around it.
var rspUnbound = &traffic.Request{Messages: []traffic.Message{{}}}

// verify checks every encrypted_content req echoes: one the simulator did
// not mint, or altered in any byte, is OAI-RSN-004's "could not be
// verified".
func (responses) verify(m *Minter, req *traffic.Request) *Fault {
	for i, msg := range req.Messages {
		for _, b := range msg.Blocks {
			if b.Type != traffic.BlockReasoning || len(b.EncryptedContent) == 0 || rawjson.IsNull(b.EncryptedContent) {
				continue
			}
			if m.check(b.EncryptedContent, rspUnbound, 0, 0, nil) == genuine {
				continue
			}
			at := msg.Path
			if at == "" {
				at = rawjson.Index("input", i)
			}
			loc := "request." + at + ".encrypted_content"
			return &Fault{Check: "OAI-RSN-004", Location: loc,
				Detail: fmt.Sprintf("the encrypted_content of reasoning item %s at %s is not one the simulator issued: it was altered or comes from elsewhere", b.ItemID, at)}
		}
	}
	return nil
}

// rspRender builds step n's response as a Responses object.
func rspRender(s *Scenario, st Step, n int, req *traffic.Request, content []json.RawMessage) []byte {
	return rspObject(s, st, n, req, rspStatus(st), rawjson.ArrayOf(content), rspUsage(st))
}

// rspObject is the response object as the API writes it, request
// parameters echoed; created and in_progress events carry it with no
// output and null usage.
func rspObject(s *Scenario, st Step, n int, req *traffic.Request, status string, output, usage json.RawMessage) json.RawMessage {
	var o rawjson.Object
	o.String("id", rspResponseID(s, n))
	o.String("object", "response")
	o.Int("created_at", 1765552659+2*n)
	o.String("status", status)
	o.Bool("background", false)
	o.Raw("error", json.RawMessage("null"))
	incomplete := json.RawMessage("null")
	if status == "incomplete" {
		var d rawjson.Object
		d.String("reason", st.StopReason)
		incomplete = d.Bytes()
	}
	o.Raw("incomplete_details", incomplete)
	o.Raw("instructions", rspInstructions(req))
	o.Raw("max_output_tokens", rspIntOrNull(req.MaxTokens))
	o.Raw("max_tool_calls", json.RawMessage("null"))
	o.String("model", st.Model)
	o.Raw("output", output)
	o.Bool("parallel_tool_calls", true)
	prev := json.RawMessage("null")
	if req.PreviousResponseID != "" {
		prev = rawjson.Quote(req.PreviousResponseID)
	}
	o.Raw("previous_response_id", prev)
	o.Raw("prompt_cache_key", json.RawMessage("null"))
	reasoning := json.RawMessage(`{"effort":"medium","summary":null}`)
	if req.Thinking != nil && rawjson.Kind(req.Thinking.Raw) == "object" {
		reasoning = rawjson.Compact(req.Thinking.Raw)
	}
	o.Raw("reasoning", reasoning)
	o.Raw("safety_identifier", json.RawMessage("null"))
	o.String("service_tier", "default")
	o.Bool("store", req.Store == nil || *req.Store)
	o.Int("temperature", 1)
	o.Raw("text", json.RawMessage(`{"format":{"type":"text"},"verbosity":"medium"}`))
	choice := json.RawMessage(`"auto"`)
	if len(req.ToolChoice) > 0 {
		choice = rawjson.Compact(req.ToolChoice)
	}
	o.Raw("tool_choice", choice)
	o.Raw("tools", rspTools(req))
	o.Int("top_logprobs", 0)
	o.Int("top_p", 1)
	o.String("truncation", "disabled")
	o.Raw("usage", usage)
	o.Raw("user", json.RawMessage("null"))
	o.Raw("metadata", json.RawMessage("{}"))
	return o.Bytes()
}

// rspResponseID is a resp_ id of the real length, the same on every run.
func rspResponseID(s *Scenario, n int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("llmtck response %s %d", s.Name, n)))
	return fmt.Sprintf("resp_%x", sum[:25])
}

func rspInstructions(req *traffic.Request) json.RawMessage {
	var parts []string
	for _, b := range req.System {
		if b.Type == traffic.BlockText {
			parts = append(parts, b.Text)
		}
	}
	if len(parts) == 0 {
		return json.RawMessage("null")
	}
	return rawjson.Quote(strings.Join(parts, "\n"))
}

func rspIntOrNull(n int) json.RawMessage {
	if n <= 0 {
		return json.RawMessage("null")
	}
	return json.RawMessage(fmt.Sprint(n))
}

// rspTools echoes the request's tools as it sent them.
func rspTools(req *traffic.Request) json.RawMessage {
	out := make([]json.RawMessage, 0, len(req.Tools))
	for _, t := range req.Tools {
		if len(t.Raw) > 0 {
			out = append(out, rawjson.Compact(t.Raw))
			continue
		}
		var o rawjson.Object
		o.String("type", "function")
		o.String("name", t.Name)
		o.StringNonEmpty("description", t.Description)
		if len(t.Schema) > 0 {
			o.Raw("parameters", rawjson.Compact(t.Schema))
		}
		out = append(out, o.Bytes())
	}
	return rawjson.ArrayOf(out)
}

// rspStatus is the final status of a step: completed, or incomplete when
// the step names why it stopped early.
func rspStatus(st Step) string {
	if st.StopReason == "" {
		return "completed"
	}
	return "incomplete"
}

func rspUsage(st Step) json.RawMessage {
	if len(st.Usage) == 0 {
		return json.RawMessage(`{"input_tokens":0,"input_tokens_details":{"cached_tokens":0},"output_tokens":0,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":0}`)
	}
	return rawjson.Compact(st.Usage)
}

// rspStream builds step n's response as the Responses event stream, one
// element per event, in the order and shapes the API sends: created,
// in_progress, then per item output_item.added, its summary parts or
// content parts with their text over two deltas (function arguments
// likewise), output_item.done, and the terminal event with the whole
// response. The .added copy of a reasoning item has no encrypted_content:
// only the .done copy is safe to echo.
func rspStream(s *Scenario, st Step, n int, req *traffic.Request, content []json.RawMessage) [][]byte {
	var out [][]byte
	seq := 0
	event := func(typ string, build func(o *rawjson.Object)) {
		var o rawjson.Object
		o.String("type", typ)
		o.Int("sequence_number", seq)
		seq++
		build(&o)
		out = append(out, sse.Write(nil, typ, string(o.Bytes())))
	}
	for _, typ := range []string{"response.created", "response.in_progress"} {
		event(typ, func(o *rawjson.Object) {
			o.Raw("response", rspObject(s, st, n, req, "in_progress", json.RawMessage("[]"), json.RawMessage("null")))
		})
	}
	for i, item := range content {
		f := fields(item)
		id, _ := rawjson.String(f["id"])
		kind, _ := rawjson.String(f["type"])
		// on writes an event about a part of this item.
		on := func(typ string, build func(o *rawjson.Object)) {
			event(typ, func(o *rawjson.Object) {
				o.String("item_id", id)
				o.Int("output_index", i)
				build(o)
			})
		}
		event("response.output_item.added", func(o *rawjson.Object) {
			o.Int("output_index", i)
			o.Raw("item", rspAdded(kind, item))
		})
		switch kind {
		case "reasoning":
			parts, _ := rawjson.Array(f["summary"])
			for k, p := range parts {
				text, _ := rawjson.String(fields(p)["text"])
				on("response.reasoning_summary_part.added", func(o *rawjson.Object) {
					o.Int("summary_index", k)
					o.Raw("part", rspRewrite(p, map[string]json.RawMessage{"text": rawjson.Quote("")}))
				})
				for _, d := range halves(text) {
					on("response.reasoning_summary_text.delta", func(o *rawjson.Object) {
						o.Int("summary_index", k)
						o.String("delta", d)
					})
				}
				on("response.reasoning_summary_text.done", func(o *rawjson.Object) {
					o.Int("summary_index", k)
					o.String("text", text)
				})
				on("response.reasoning_summary_part.done", func(o *rawjson.Object) {
					o.Int("summary_index", k)
					o.Raw("part", p)
				})
			}
		case "message":
			parts, _ := rawjson.Array(f["content"])
			for k, p := range parts {
				text, _ := rawjson.String(fields(p)["text"])
				on("response.content_part.added", func(o *rawjson.Object) {
					o.Int("content_index", k)
					o.Raw("part", rspRewrite(p, map[string]json.RawMessage{"text": rawjson.Quote("")}))
				})
				for _, d := range halves(text) {
					on("response.output_text.delta", func(o *rawjson.Object) {
						o.Int("content_index", k)
						o.String("delta", d)
						o.Raw("logprobs", json.RawMessage("[]"))
					})
				}
				on("response.output_text.done", func(o *rawjson.Object) {
					o.Int("content_index", k)
					o.String("text", text)
					o.Raw("logprobs", json.RawMessage("[]"))
				})
				on("response.content_part.done", func(o *rawjson.Object) {
					o.Int("content_index", k)
					o.Raw("part", p)
				})
			}
		case "function_call":
			args, _ := rawjson.String(f["arguments"])
			for _, d := range halves(args) {
				on("response.function_call_arguments.delta", func(o *rawjson.Object) { o.String("delta", d) })
			}
			on("response.function_call_arguments.done", func(o *rawjson.Object) { o.String("arguments", args) })
		}
		event("response.output_item.done", func(o *rawjson.Object) {
			o.Int("output_index", i)
			o.Raw("item", item)
		})
	}
	status := rspStatus(st)
	event("response."+status, func(o *rawjson.Object) {
		o.Raw("response", rspObject(s, st, n, req, status, rawjson.ArrayOf(content), rspUsage(st)))
	})
	return out
}

// rspAdded is the copy of an item output_item.added carries: in progress,
// with nothing generated yet.
func rspAdded(kind string, item json.RawMessage) json.RawMessage {
	switch kind {
	case "reasoning":
		return rspRewrite(item, map[string]json.RawMessage{"encrypted_content": nil, "summary": json.RawMessage("[]")})
	case "message":
		return rspRewrite(item, map[string]json.RawMessage{"status": rawjson.Quote("in_progress"), "content": json.RawMessage("[]")})
	case "function_call":
		return rspRewrite(item, map[string]json.RawMessage{"status": rawjson.Quote("in_progress"), "arguments": rawjson.Quote("")})
	}
	return item
}

// rspRewrite copies the object raw with the fields in over replaced in
// place (a nil value drops the field); fields raw lacks are not added.
func rspRewrite(raw json.RawMessage, over map[string]json.RawMessage) json.RawMessage {
	fs, _ := rawjson.Fields(raw) // validated when the scenario was parsed
	var o rawjson.Object
	for _, f := range fs {
		v, ok := over[f.Key]
		switch {
		case !ok:
			o.Raw(f.Key, f.Value)
		case v != nil:
			o.Raw(f.Key, v)
		}
	}
	return o.Bytes()
}
