package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// chat serves the Chat Completions API: POST /v1/chat/completions, one
// assistant message per step. It mints nothing: OpenAI returns no opaque
// reasoning on this endpoint, so the catalogue's checks are the whole
// judgement.
type chat struct{}

// chatEpoch is the "created" time of a scenario's first response
// (2026-01-01T00:00:00Z); later steps add a few seconds each, so runs
// repeat byte for byte.
const chatEpoch = 1767225600

func (chat) endpoint(r *http.Request) (bool, *Fault) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		return false, &Fault{Status: http.StatusNotFound, Message: fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path),
			Detail: r.Method + " " + r.URL.Path + ": the Chat Completions API is POST /v1/chat/completions"}
	}
	return false, nil
}

// chatMessage is a step's one assistant message, as the scenario gives it.
type chatMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []chatCall      `json:"tool_calls"`

	text *string // Content read: nil for null or absent
}

type chatCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// parseChat reads and validates a step's content: exactly one assistant
// message with text, tool calls or both, calling only tools (nil: any, for
// a step already validated). Errors start with the field at fault.
func parseChat(content []json.RawMessage, tools map[string]bool) (*chatMessage, error) {
	if len(content) != 1 {
		return nil, fmt.Errorf("content: want exactly one element, the assistant message, got %d", len(content))
	}
	var m chatMessage
	dec := json.NewDecoder(bytes.NewReader(content[0]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("content[0]: want an assistant message {role, content, tool_calls}: %v", err)
	}
	if m.Role != "assistant" {
		return nil, fmt.Errorf("content[0].role: want \"assistant\", got %q", m.Role)
	}
	switch rawjson.Kind(m.Content) {
	case "", "null":
	case "string":
		s, _ := rawjson.String(m.Content)
		if s == "" {
			return nil, errors.New(`content[0].content: want text or null, got ""`)
		}
		m.text = &s
	default:
		return nil, fmt.Errorf("content[0].content: want a string or null, got %s", rawjson.Describe(m.Content))
	}
	if m.text == nil && len(m.ToolCalls) == 0 {
		return nil, errors.New("content[0]: want content text, tool_calls or both")
	}
	for i, c := range m.ToolCalls {
		at := fmt.Sprintf("content[0].tool_calls[%d]", i)
		args, ok := rawjson.String(c.Function.Arguments)
		switch {
		case !strings.HasPrefix(c.ID, "call_"):
			return nil, fmt.Errorf("%s.id: want a call_ id, got %q", at, c.ID)
		case c.Type != "function":
			return nil, fmt.Errorf("%s.type: want \"function\", got %q", at, c.Type)
		case tools != nil && !tools[c.Function.Name]:
			return nil, fmt.Errorf("%s.function.name: tool %q is not among the scenario's tools", at, c.Function.Name)
		case !ok || rawjson.Kind([]byte(args)) != "object" || !rawjson.Valid([]byte(args)):
			return nil, fmt.Errorf("%s.function.arguments: want a JSON string holding the arguments object, got %s", at, rawjson.Describe(c.Function.Arguments))
		}
		for _, d := range m.ToolCalls[:i] {
			if d.ID == c.ID {
				return nil, fmt.Errorf("%s.id: %s is used twice", at, c.ID)
			}
		}
	}
	return &m, nil
}

// checkStep validates the message, then decodes it the way a client would,
// as a body and as a stream, so a scenario cannot serve what the codec
// does not read.
func (chat) checkStep(s *Scenario, st Step, tools map[string]bool) error {
	m, err := parseChat(st.Content, tools)
	if err != nil {
		return err
	}
	want := len(m.ToolCalls)
	if m.text != nil {
		want++
	}
	codec := providers.For(traffic.WireOpenAI)
	for _, body := range [][]byte{chatRender(s.Name, st, 0, m), bytes.Join(chatStream(s.Name, st, 0, m, true), nil)} {
		resp, err := codec.DecodeResponse(http.StatusOK, nil, body)
		if err != nil {
			return fmt.Errorf("content: does not decode as a chat completion: %v", err)
		}
		if resp.Stream != nil && (!resp.Stream.Complete || len(resp.Stream.Issues) > 0) {
			return fmt.Errorf("content: streams with issues %v", resp.Stream.Issues)
		}
		if len(resp.Output) != 1 || len(resp.Output[0].Blocks) != want {
			return fmt.Errorf("content: decodes to %d messages, not one with %d blocks", len(resp.Output), want)
		}
	}
	return nil
}

// respond renders step n as a chat.completion, or as its chunk stream with
// a usage chunk when the request asked for one.
func (chat) respond(_ *Minter, s *Scenario, n int, req *traffic.Request, stream bool) ([][]byte, error) {
	st := s.Steps[n]
	m, err := parseChat(st.Content, nil)
	if err != nil {
		return nil, fmt.Errorf("step %d: %v", n, err)
	}
	if stream {
		return chatStream(s.Name, st, n, m, chatIncludeUsage(req)), nil
	}
	return [][]byte{chatRender(s.Name, st, n, m)}, nil
}

// verify has nothing to check: the wire carries no opaque tokens.
func (chat) verify(*Minter, *traffic.Request) *Fault { return nil }

// chatIncludeUsage reports stream_options.include_usage on req.
func chatIncludeUsage(req *traffic.Request) bool {
	var o struct {
		IncludeUsage bool `json:"include_usage"`
	}
	return req != nil && json.Unmarshal(req.Extra["stream_options"], &o) == nil && o.IncludeUsage
}

// chatHead is what every response and chunk of step n opens with.
type chatHead struct {
	id, model, fingerprint string
	created                int
}

func chatHeadOf(name string, st Step, n int) chatHead {
	id := sha256.Sum256(fmt.Appendf(nil, "chatcmpl %s %d", name, n))
	fp := sha256.Sum256([]byte("fingerprint " + st.Model))
	return chatHead{id: "chatcmpl-" + chatAlnum(id[:], 29), model: st.Model, fingerprint: "fp_" + hex.EncodeToString(fp[:5]), created: chatEpoch + 3*n}
}

// chatAlnum spells the first n bytes of b (n <= len(b)) in letters and
// digits, as OpenAI's ids look.
func chatAlnum(b []byte, n int) string {
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	out := make([]byte, n)
	for i := range out {
		out[i] = digits[int(b[i])%len(digits)]
	}
	return string(out)
}

func (h chatHead) open(o *rawjson.Object, object string) {
	o.String("id", h.id)
	o.String("object", object)
	o.Int("created", h.created)
	o.String("model", h.model)
}

// chatRender builds step n's chat.completion body, in OpenAI's field order.
func chatRender(name string, st Step, n int, m *chatMessage) []byte {
	h := chatHeadOf(name, st, n)
	var msg rawjson.Object
	msg.String("role", "assistant")
	msg.Raw("content", chatText(m))
	if len(m.ToolCalls) > 0 {
		calls := make([]json.RawMessage, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			calls[i] = chatCallObject(-1, c.ID, c.Function.Name, c.Function.Arguments)
		}
		msg.Raw("tool_calls", rawjson.ArrayOf(calls))
	}
	msg.Raw("refusal", json.RawMessage("null"))
	msg.Raw("annotations", json.RawMessage("[]"))
	var choice rawjson.Object
	choice.Int("index", 0)
	choice.Raw("message", msg.Bytes())
	choice.Raw("logprobs", json.RawMessage("null"))
	choice.String("finish_reason", chatFinish(st, m))
	var o rawjson.Object
	h.open(&o, "chat.completion")
	o.Raw("choices", rawjson.ArrayOf([]json.RawMessage{choice.Bytes()}))
	o.Raw("usage", chatUsage(st))
	o.String("service_tier", "default")
	o.String("system_fingerprint", h.fingerprint)
	return o.Bytes()
}

// chatStream builds step n's chunk stream, one element per event, split as
// OpenAI splits it: the role first (with the first tool call when there is
// no text), text word by word, each tool call's id and name then its
// arguments in pieces, the finish_reason on an empty delta, the usage
// chunk when asked for, then [DONE].
func chatStream(name string, st Step, n int, m *chatMessage, usage bool) [][]byte {
	h := chatHeadOf(name, st, n)
	var out [][]byte
	chunk := func(delta json.RawMessage, finish string) {
		var choice rawjson.Object
		choice.Int("index", 0)
		choice.Raw("delta", delta)
		choice.Raw("logprobs", json.RawMessage("null"))
		if finish == "" {
			choice.Raw("finish_reason", json.RawMessage("null"))
		} else {
			choice.String("finish_reason", finish)
		}
		out = append(out, chatChunk(h, []json.RawMessage{choice.Bytes()}, usage, nil))
	}
	calls := func(c json.RawMessage) json.RawMessage {
		var d rawjson.Object
		d.Raw("tool_calls", rawjson.ArrayOf([]json.RawMessage{c}))
		return d.Bytes()
	}

	var first rawjson.Object
	first.String("role", "assistant")
	next := 0 // the first tool call not yet opened
	if m.text != nil {
		first.Raw("content", json.RawMessage(`""`))
	} else {
		first.Raw("content", json.RawMessage("null"))
		c := m.ToolCalls[0]
		first.Raw("tool_calls", rawjson.ArrayOf([]json.RawMessage{chatCallObject(0, c.ID, c.Function.Name, json.RawMessage(`""`))}))
	}
	first.Raw("refusal", json.RawMessage("null"))
	chunk(first.Bytes(), "")
	if m.text != nil {
		for _, w := range chatWords(*m.text) {
			var d rawjson.Object
			d.String("content", w)
			chunk(d.Bytes(), "")
		}
	} else {
		next = 1
	}
	for i, c := range m.ToolCalls {
		if i >= next {
			chunk(calls(chatCallObject(i, c.ID, c.Function.Name, json.RawMessage(`""`))), "")
		}
		args, _ := rawjson.String(c.Function.Arguments)
		for _, p := range chatArgPieces(args) {
			var fn rawjson.Object
			fn.String("arguments", p)
			var frag rawjson.Object
			frag.Int("index", i)
			frag.Raw("function", fn.Bytes())
			chunk(calls(frag.Bytes()), "")
		}
	}
	chunk(json.RawMessage("{}"), chatFinish(st, m))
	if usage {
		out = append(out, chatChunk(h, nil, true, chatUsage(st)))
	}
	return append(out, sse.Write(nil, "", "[DONE]"))
}

// chatChunk is one chat.completion.chunk event; with usage asked for,
// every chunk carries "usage" (null but in the last).
func chatChunk(h chatHead, choices []json.RawMessage, usage bool, u json.RawMessage) []byte {
	var o rawjson.Object
	h.open(&o, "chat.completion.chunk")
	o.String("service_tier", "default")
	o.String("system_fingerprint", h.fingerprint)
	if choices == nil {
		choices = []json.RawMessage{}
	}
	o.Raw("choices", rawjson.ArrayOf(choices))
	if usage {
		if u == nil {
			u = json.RawMessage("null")
		}
		o.Raw("usage", u)
	}
	return sse.Write(nil, "", string(o.Bytes()))
}

// chatCallObject is a tool call as a message (index < 0) or a stream's
// first fragment of call index carries it.
func chatCallObject(index int, id, name string, args json.RawMessage) json.RawMessage {
	var fn rawjson.Object
	fn.String("name", name)
	fn.Raw("arguments", args)
	var o rawjson.Object
	if index >= 0 {
		o.Int("index", index)
	}
	o.String("id", id)
	o.String("type", "function")
	o.Raw("function", fn.Bytes())
	return o.Bytes()
}

func chatText(m *chatMessage) json.RawMessage {
	if m.text == nil {
		return json.RawMessage("null")
	}
	return rawjson.Quote(*m.text)
}

func chatFinish(st Step, m *chatMessage) string {
	switch {
	case st.StopReason != "":
		return st.StopReason
	case len(m.ToolCalls) > 0:
		return "tool_calls"
	}
	return "stop"
}

func chatUsage(st Step) json.RawMessage {
	if len(st.Usage) == 0 {
		return json.RawMessage(`{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0}`)
	}
	return rawjson.Compact(st.Usage)
}

// chatWords splits text before each space, as a model's tokens arrive:
// "The sky is" → "The", " sky", " is".
func chatWords(text string) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if text[i] == ' ' && text[i-1] != ' ' {
			out = append(out, text[start:i])
			start = i
		}
	}
	return append(out, text[start:])
}

// chatArgPieces splits a JSON arguments string into runs of punctuation and
// runs of the rest, as OpenAI streams them: {"city":"Paris"} → {" city
// ":" Paris "}. Splits fall on ASCII bytes only, never inside a character.
func chatArgPieces(args string) []string {
	punct := func(c byte) bool { return strings.IndexByte(`{}[]":, `, c) >= 0 }
	var out []string
	start := 0
	for i := 1; i < len(args); i++ {
		if punct(args[i]) != punct(args[i-1]) {
			out = append(out, args[start:i])
			start = i
		}
	}
	return append(out, args[start:])
}
