package responses

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/media"
	"github.com/llmtck/llmtck/traffic"
)

// The writers of single items and content parts, the inverse of items.go.

// partJSON writes one content part.
func partJSON(b traffic.Block, role traffic.Role, path string) (json.RawMessage, error) {
	var w writer
	switch b.Type {
	case traffic.BlockText:
		typ := b.WireType
		if typ == "" {
			typ = "input_text"
			if role == traffic.RoleAssistant {
				typ = "output_text"
			}
		}
		w.str("type", typ)
		w.str("text", b.Text)
	case traffic.BlockImage:
		w.str("type", orDefault(b.WireType, "input_image"))
		w.raw("image_url", sourceURL(b))
	case traffic.BlockDocument:
		w.str("type", orDefault(b.WireType, "input_file"))
		if mt, _, ok := media.Neutral(b.Source); ok {
			w.str("filename", media.Filename(mt))
		}
		w.raw("file_data", sourceURL(b))
	case traffic.BlockOther:
		if len(b.Raw) == 0 {
			return nil, fmt.Errorf("%s: a %q block has no Raw value to write", path, b.WireType)
		}
		return b.Raw, nil
	default:
		return nil, fmt.Errorf("%s: a %s block cannot be a message content part", path, b.Type)
	}
	w.extra(b.Extra)
	return w.bytes(), nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// sourceURL returns the media source as a Responses URL value: the token
// itself when it is a string (how this wire decodes it), or a data: URL built
// from an Anthropic-style {media_type, data} or {url} source object.
func sourceURL(b traffic.Block) json.RawMessage {
	if len(b.Source) == 0 || rawjson.Kind(b.Source) == "string" {
		return b.Source
	}
	if mt, data, ok := media.Neutral(b.Source); ok {
		return rawjson.Quote(media.DataURL(mt, data))
	}
	o, err := parseObject(b.Source, "source")
	if err != nil {
		return b.Source
	}
	if u, ok := o.str("url"); ok {
		return rawjson.Quote(u)
	}
	data, _ := o.str("data")
	mt, _ := o.str("media_type")
	if mt == "" {
		mt = b.MediaType
	}
	return rawjson.Quote("data:" + mt + ";base64," + data)
}

// itemJSON writes a block that is an item of its own.
func itemJSON(b traffic.Block, extra map[string]json.RawMessage, path string) (json.RawMessage, error) {
	var w writer
	switch b.Type {
	case traffic.BlockReasoning:
		w.str("type", orDefault(b.WireType, "reasoning"))
		w.strNonEmpty("id", b.ItemID)
		summary, err := summaryJSON(b, path)
		if err != nil {
			return nil, err
		}
		w.raw("summary", summary)
		w.raw("encrypted_content", b.EncryptedContent)
	case traffic.BlockToolCall:
		w.str("type", orDefault(b.WireType, "function_call"))
		w.strNonEmpty("id", b.ItemID)
		w.strNonEmpty("call_id", b.ID)
		w.strNonEmpty("name", b.Name)
		w.raw("arguments", argumentsJSON(b.Input))
	case traffic.BlockToolResult:
		w.str("type", orDefault(b.WireType, "function_call_output"))
		w.strNonEmpty("id", b.ItemID)
		w.strNonEmpty("call_id", b.ToolCallID)
		w.raw("output", outputJSON(b))
	case traffic.BlockOther:
		if len(b.Raw) == 0 {
			return nil, fmt.Errorf("%s: a %q item has no Raw value to write", path, b.WireType)
		}
		if len(extra) > 0 {
			return nil, fmt.Errorf("%s: a raw %q item cannot also carry message Extra", path, b.WireType)
		}
		return b.Raw, nil
	default:
		return nil, fmt.Errorf("%s: a %s block cannot be sent on the Responses wire", path, b.Type)
	}
	w.extra(b.Extra)
	w.extra(extra)
	return w.bytes(), nil
}

// summaryJSON writes a reasoning block's summary parts, or one summary_text
// part from Text for a block built in code without Content. The API requires
// summary, so a block built in code (no Path) without any gets an empty one;
// a decoded item that had none keeps having none.
func summaryJSON(b traffic.Block, path string) (json.RawMessage, error) {
	if b.Content == nil {
		switch {
		case b.Text != "":
		case b.Path == "":
			return json.RawMessage("[]"), nil
		default:
			return nil, nil
		}
		var w writer
		w.str("type", "summary_text")
		w.str("text", b.Text)
		return rawjson.ArrayOf([]json.RawMessage{w.bytes()}), nil
	}
	parts := make([]json.RawMessage, 0, len(b.Content))
	for k, p := range b.Content {
		ppath := rawjson.Index(rawjson.At(path, "summary"), k)
		switch p.Type {
		case traffic.BlockText:
			var w writer
			w.str("type", orDefault(p.WireType, "summary_text"))
			w.str("text", p.Text)
			w.extra(p.Extra)
			parts = append(parts, w.bytes())
		case traffic.BlockOther:
			if len(p.Raw) == 0 {
				return nil, fmt.Errorf("%s: a %q summary part has no Raw value to write", ppath, p.WireType)
			}
			parts = append(parts, p.Raw)
		default:
			return nil, fmt.Errorf("%s: a %s block cannot be a summary part", ppath, p.Type)
		}
	}
	return rawjson.ArrayOf(parts), nil
}

// argumentsJSON returns the arguments token: as held when it is a string,
// which is how this wire decodes it; an object from another wire becomes the
// string of its JSON text.
func argumentsJSON(input json.RawMessage) json.RawMessage {
	if len(input) == 0 || rawjson.Kind(input) == "string" {
		return input
	}
	return rawjson.Quote(string(rawjson.Compact(input)))
}

// outputJSON returns a tool result's output: ResultRaw as held, or the text
// of its content blocks as one string.
func outputJSON(b traffic.Block) json.RawMessage {
	if len(b.ResultRaw) > 0 {
		return b.ResultRaw
	}
	if b.Content == nil {
		return nil
	}
	var texts []string
	for _, c := range b.Content {
		if c.Type == traffic.BlockText {
			texts = append(texts, c.Text)
		}
	}
	return rawjson.Quote(strings.Join(texts, "\n"))
}
