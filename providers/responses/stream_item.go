package responses

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
)

// item is one output item while its events arrive.
type item struct {
	index   int
	id, typ string
	added   json.RawMessage // the output_item.added copy; nil for an implicit item
	done    json.RawMessage // the output_item.done copy, once seen
	addedAt int             // event that started it

	parts    map[int]*part // message content or reasoning_text parts, by content_index
	summary  map[int]*part // reasoning summary parts, by summary_index
	args     strings.Builder
	argsSeen bool
}

// part is one content or summary part while its text arrives.
type part struct {
	raw     json.RawMessage // the part object from .added or .done
	field   string          // "text", or "refusal" for refusal parts
	text    strings.Builder
	started bool
	deltas  bool // text came from deltas or a .done event
}

func (it *item) content(ci int) *part {
	if it.parts == nil {
		it.parts = map[int]*part{}
	}
	p := it.parts[ci]
	if p == nil {
		p = &part{field: "text"}
		it.parts[ci] = p
	}
	return p
}

func (it *item) summaryPart(si int) *part {
	if it.summary == nil {
		it.summary = map[int]*part{}
	}
	p := it.summary[si]
	if p == nil {
		p = &part{field: "text"}
		it.summary[si] = p
	}
	return p
}

// rebuild writes the item as the deltas left it, for an item that was never
// done: the .added copy with its content, summary, arguments or input
// replaced by what arrived. Its status stays what .added said (in_progress),
// so nothing marks it complete.
func (it *item) rebuild() json.RawMessage {
	over := map[string]json.RawMessage{}
	switch it.typ {
	case "message":
		if len(it.parts) > 0 {
			over["content"] = partsJSON(it.parts, "output_text")
		}
	case "reasoning":
		if len(it.summary) > 0 {
			over["summary"] = partsJSON(it.summary, "summary_text")
		}
		if len(it.parts) > 0 {
			over["content"] = partsJSON(it.parts, "reasoning_text")
		}
	case "function_call":
		if it.argsSeen {
			over["arguments"] = rawjson.Quote(it.args.String())
		}
	case "custom_tool_call":
		if it.argsSeen {
			over["input"] = rawjson.Quote(it.args.String())
		}
	}
	var base []rawjson.Field
	if it.added != nil {
		base, _ = rawjson.Fields(it.added)
	}
	var w writer
	if it.added == nil { // implicit: only the event's item_id and kind are known
		w.str("type", it.typ)
		w.strNonEmpty("id", it.id)
	}
	for _, f := range base {
		if v, ok := over[f.Key]; ok {
			w.raw(f.Key, v)
			continue
		}
		w.raw(f.Key, f.Value)
	}
	w.extra(over)
	return w.bytes()
}

// partsJSON writes parts in index order, each its last part object with the
// text that arrived.
func partsJSON(parts map[int]*part, defType string) json.RawMessage {
	keys := make([]int, 0, len(parts))
	for k := range parts {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	out := make([]json.RawMessage, 0, len(keys))
	for _, k := range keys {
		p := parts[k]
		var w writer
		var fields []rawjson.Field
		if p.raw != nil {
			fields, _ = rawjson.Fields(p.raw)
		} else {
			w.str("type", defType)
		}
		for _, f := range fields {
			if f.Key == p.field {
				continue
			}
			w.raw(f.Key, f.Value)
		}
		w.str(p.field, p.text.String())
		out = append(out, w.bytes())
	}
	return rawjson.ArrayOf(out)
}

// sameItem compares the .done copy of an item with the terminal output's
// copy as JSON values, except that encrypted_content need only be present in
// both: the server re-encrypts it on every serialisation.
func sameItem(done, fin json.RawMessage) bool {
	return rawjson.Equal(maskEncrypted(done), maskEncrypted(fin))
}

func maskEncrypted(raw json.RawMessage) json.RawMessage {
	fields, err := rawjson.Fields(raw)
	if err != nil {
		return raw
	}
	var w writer
	for _, f := range fields {
		if f.Key == "encrypted_content" && rawjson.Kind(f.Value) == "string" {
			w.raw(f.Key, json.RawMessage(`"…"`))
			continue
		}
		w.raw(f.Key, f.Value)
	}
	return w.bytes()
}
