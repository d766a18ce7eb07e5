package openai

import (
	"encoding/json"

	"github.com/llmtck/llmtck/internal/rawjson"
)

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
