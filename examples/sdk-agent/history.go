package sdkagent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// Entry is one message of the stored conversation, in the agent's own
// terms, with the provider's form of an answer kept as it came.
type Entry struct {
	Role string `json:"role"` // "user", "assistant" or "tool" (results)
	Text string `json:"text,omitempty"`
	// Wire and Model produced an assistant entry; Native is the answer as
	// that provider returned it, sent back unchanged to the same model.
	Wire    string          `json:"wire,omitempty"`
	Model   string          `json:"model,omitempty"`
	Native  json.RawMessage `json:"native,omitempty"`
	Calls   []Call          `json:"calls,omitempty"`
	Results []Result        `json:"results,omitempty"`
}

// Call is a tool call of an answer.
type Call struct {
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// Result answers one Call.
type Result struct {
	CallID string `json:"call_id,omitempty"`
	Name   string `json:"name"`
	Output string `json:"output"`
	Error  bool   `json:"error,omitempty"`
}

// native reports whether e can go back as it came to model on wire: the
// same provider and model produced it. An answer of another model is sent
// in plain terms (text and calls), without what only its producer reads.
func (e Entry) native(wire, model string) bool {
	return e.Role == "assistant" && len(e.Native) > 0 && e.Wire == wire && e.Model == model
}

// load reads the conversation; a missing file is an empty one.
func (a *Agent) load() ([]Entry, error) {
	data, err := os.ReadFile(a.Store)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var h []Entry
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, fmt.Errorf("sdkagent: %s: %w", a.Store, err)
	}
	return h, nil
}

// save writes the conversation (HTML escaping off: the answers' bytes stay
// as the provider sent them).
func (a *Agent) save(h []Entry) error {
	h = a.Defects.stored(h)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return err
	}
	return os.WriteFile(a.Store, buf.Bytes(), 0o644)
}

// encode is json.Marshal with HTML escaping off.
func encode(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only values that always encode are given
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// stored is h as a store with d's defects writes it.
func (d Defects) stored(h []Entry) []Entry {
	if !d.TrimThinking && !d.MapInput && !d.DropEmptyParts {
		return h
	}
	out := make([]Entry, len(h))
	for i, e := range h {
		if e.Role == "assistant" {
			if d.MapInput {
				e.Calls = remapCalls(e.Calls)
			}
			if len(e.Native) > 0 {
				e.Native = d.storedNative(e.Wire, e.Native)
			}
		}
		out[i] = e
	}
	return out
}

// storedNative rewrites one answer as the defects do.
func (d Defects) storedNative(wire string, native json.RawMessage) json.RawMessage {
	switch wire {
	case Anthropic:
		return editList(native, "content", func(b map[string]json.RawMessage) bool {
			if d.TrimThinking && str(b["type"]) == "thinking" {
				b["thinking"] = encode(strings.TrimSpace(str(b["thinking"])))
			}
			if d.MapInput && str(b["type"]) == "tool_use" {
				b["input"] = remap(b["input"])
			}
			return true
		})
	case Chat:
		return editList(native, "tool_calls", func(c map[string]json.RawMessage) bool {
			if d.MapInput {
				c["function"] = editObject(c["function"], func(f map[string]json.RawMessage) {
					f["arguments"] = encode(string(remap(json.RawMessage(str(f["arguments"])))))
				})
			}
			return true
		})
	case Responses:
		var items []map[string]json.RawMessage
		if json.Unmarshal(native, &items) != nil {
			return native
		}
		for _, it := range items {
			if d.MapInput && str(it["type"]) == "function_call" {
				it["arguments"] = encode(string(remap(json.RawMessage(str(it["arguments"])))))
			}
		}
		return encode(items)
	case Gemini:
		return editList(native, "parts", func(p map[string]json.RawMessage) bool {
			_, text := p["text"]
			_, call := p["functionCall"]
			return !d.DropEmptyParts || call || (text && str(p["text"]) != "")
		})
	}
	return native
}

// editList applies edit to each object of the list under key in the object
// msg, dropping those edit refuses.
func editList(msg json.RawMessage, key string, edit func(map[string]json.RawMessage) bool) json.RawMessage {
	return editObject(msg, func(m map[string]json.RawMessage) {
		var list []map[string]json.RawMessage
		if json.Unmarshal(m[key], &list) != nil {
			return
		}
		kept := list[:0]
		for _, o := range list {
			if edit(o) {
				kept = append(kept, o)
			}
		}
		m[key] = encode(kept)
	})
}

func editObject(raw json.RawMessage, edit func(map[string]json.RawMessage)) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	edit(m)
	return encode(m)
}

// remap is the defect: input through map[string]any and json.Marshal.
func remap(input json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(input, &m) != nil {
		return input
	}
	out, _ := json.Marshal(m)
	return out
}

func remapCalls(calls []Call) []Call {
	out := make([]Call, len(calls))
	for i, c := range calls {
		c.Input = remap(c.Input)
		out[i] = c
	}
	return out
}

// str is a JSON string's value, "" for anything else.
func str(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s)
	return s
}
