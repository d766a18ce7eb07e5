// Package media is the wire-neutral form of an image or document part,
// {mediaType, data} with data in base64 (docs/reference-model.md, seed 004),
// and its reading from each wire's decoded form.
package media

import (
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// Source is the neutral source of a media block: the object
// {"mediaType": …, "data": …}, which every codec writes in its wire's own
// form (a data URL on OpenAI's wires, inlineData on Gemini, a base64 source
// block on Anthropic and Bedrock). A block decoded from a wire keeps the
// wire's own source instead, so it is echoed as it came.
func Source(mediaType, data string) json.RawMessage {
	var o rawjson.Object
	o.String("mediaType", mediaType)
	o.String("data", data)
	return o.Bytes()
}

// Block is a neutral image or document block: an image when mediaType
// starts with image/, else a document.
func Block(mediaType, data string) traffic.Block {
	t := traffic.BlockDocument
	if strings.HasPrefix(mediaType, "image/") {
		t = traffic.BlockImage
	}
	return traffic.Block{Type: t, MediaType: mediaType, Source: Source(mediaType, data)}
}

// Neutral reads a neutral source: an object with exactly the keys
// mediaType and data, both strings.
func Neutral(src json.RawMessage) (mediaType, data string, ok bool) {
	if rawjson.Kind(src) != "object" {
		return "", "", false
	}
	fields, err := rawjson.Fields(src)
	if err != nil || len(fields) != 2 {
		return "", "", false
	}
	for _, f := range fields {
		s, isString := rawjson.String(f.Value)
		switch {
		case !isString:
			return "", "", false
		case f.Key == "mediaType":
			mediaType = s
		case f.Key == "data":
			data = s
		default:
			return "", "", false
		}
	}
	return mediaType, data, mediaType != ""
}

// DataURL is data as a base64 data: URL of mediaType.
func DataURL(mediaType, data string) string {
	return "data:" + mediaType + ";base64," + data
}

// ParseDataURL reads a base64 data: URL; ok is false for anything else.
func ParseDataURL(s string) (mediaType, data string, ok bool) {
	rest, found := strings.CutPrefix(s, "data:")
	if !found {
		return "", "", false
	}
	head, data, found := strings.Cut(rest, ",")
	mediaType, found2 := strings.CutSuffix(head, ";base64")
	if !found || !found2 {
		return "", "", false
	}
	return mediaType, data, true
}

// Format is Bedrock Converse's format name for mediaType ("png", "pdf",
// "docx"…): the subtype, with the names Converse uses for the office types.
func Format(mediaType string) string {
	switch mediaType {
	case "text/plain":
		return "txt"
	case "text/markdown":
		return "md"
	case "application/msword":
		return "doc"
	case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
		return "docx"
	case "application/vnd.ms-excel":
		return "xls"
	case "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
		return "xlsx"
	case "image/jpg":
		return "jpeg"
	}
	_, sub, _ := strings.Cut(mediaType, "/")
	return sub
}

// MediaType is the media type of a Bedrock format name, Format's inverse.
func MediaType(format string, image bool) string {
	switch format {
	case "txt":
		return "text/plain"
	case "md":
		return "text/markdown"
	case "doc":
		return "application/msword"
	case "docx":
		return "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	case "xls":
		return "application/vnd.ms-excel"
	case "xlsx":
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	case "csv", "html":
		return "text/" + format
	}
	if image {
		return "image/" + format
	}
	return "application/" + format
}

// Filename is the file name written where a wire asks for one with inline
// file data (OpenAI's file parts): "document" with the format as extension.
func Filename(mediaType string) string {
	return "document." + Format(mediaType)
}

// Of reads the neutral {mediaType, data} of a media block as any codec
// decodes it: a neutral source; Anthropic's {"type":"base64", media_type,
// data}; Chat's {"url": data URL} or {"file_data": data URL}; Responses'
// data URL string; Gemini's inlineData {mimeType, data}; Bedrock's image or
// document member (kept whole in Raw). ok is false for media given by
// reference (a URL, a file id) rather than inline.
func Of(b traffic.Block) (mediaType, data string, ok bool) {
	if b.Type == traffic.BlockOther {
		return bedrockOf(b.Raw)
	}
	if b.Type != traffic.BlockImage && b.Type != traffic.BlockDocument {
		return "", "", false
	}
	if mt, d, ok := Neutral(b.Source); ok {
		return mt, d, true
	}
	if s, isString := rawjson.String(b.Source); isString {
		return ParseDataURL(s)
	}
	f := fieldsOf(b.Source)
	switch {
	case f["data"] != "" && f["media_type"] != "":
		return f["media_type"], f["data"], true
	case f["data"] != "" && (f["mimeType"] != "" || f["mime_type"] != ""):
		return f["mimeType"] + f["mime_type"], f["data"], true
	case f["url"] != "":
		return ParseDataURL(f["url"])
	case f["file_data"] != "":
		return ParseDataURL(f["file_data"])
	}
	return "", "", false
}

// bedrockOf reads {"image"|"document": {"format", "source": {"bytes"}}}.
func bedrockOf(raw json.RawMessage) (mediaType, data string, ok bool) {
	outer, err := rawjson.Fields(raw)
	if err != nil || len(outer) != 1 || (outer[0].Key != "image" && outer[0].Key != "document") {
		return "", "", false
	}
	inner := fieldsOf(outer[0].Value)
	src := map[string]string{}
	if fields, err := rawjson.Fields(outer[0].Value); err == nil {
		for _, f := range fields {
			if f.Key == "source" {
				src = fieldsOf(f.Value)
			}
		}
	}
	if inner["format"] == "" || src["bytes"] == "" {
		return "", "", false
	}
	return MediaType(inner["format"], outer[0].Key == "image"), src["bytes"], true
}

// fieldsOf is the string fields of a JSON object.
func fieldsOf(v json.RawMessage) map[string]string {
	out := map[string]string{}
	fields, err := rawjson.Fields(v)
	if err != nil {
		return out
	}
	for _, f := range fields {
		if s, ok := rawjson.String(f.Value); ok {
			out[f.Key] = s
		}
	}
	return out
}
