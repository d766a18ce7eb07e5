package openai

import (
	"encoding/json"

	"github.com/llmtck/llmtck/internal/rawjson"
)

// setExtra records a wire field the model does not name, allocating the map on first use.
func setExtra(m *map[string]json.RawMessage, key string, v json.RawMessage) {
	if *m == nil {
		*m = map[string]json.RawMessage{}
	}
	(*m)[key] = v
}

// writeExtra adds every Extra key not in skip, in sorted order.
func writeExtra(o *rawjson.Object, extra map[string]json.RawMessage, skip func(key string) bool) {
	if len(extra) == 0 {
		return
	}
	rest := make(map[string]json.RawMessage, len(extra))
	for k, v := range extra {
		if skip == nil || !skip(k) {
			rest[k] = v
		}
	}
	o.Extra(rest)
}

// excerpt shortens text for an error or issue message.
func excerpt(b []byte) string {
	const max = 120
	if len(b) <= max {
		return string(b)
	}
	return string(b[:max]) + "…"
}
