package anthropic

import (
	"github.com/llmtck/llmtck/internal/rawjson"
)

// The typed readers over raw JSON live in internal/rawjson; these helpers
// are the Anthropic decoder's own shortcuts on top of them.

// lookupString returns the string value of key, or "" when it is absent or
// not a string.
func lookupString(fields []rawjson.Field, key string) string {
	v, _ := rawjson.Lookup(fields, key)
	s, _ := rawjson.String(v)
	return s
}

// lookupInt returns the integer value of key and whether it was one.
func lookupInt(fields []rawjson.Field, key string) (int, bool) {
	v, ok := rawjson.Lookup(fields, key)
	if !ok {
		return 0, false
	}
	n, err := rawjson.IntAt(key, v)
	return n, err == nil
}
