package cassette

import (
	"strconv"
	"strings"
	"testing"
)

func BenchmarkZZAppendLargeRequest(b *testing.B) {
	var msgs []string
	for i := range 600 {
		msgs = append(msgs, `{"role":"user","content":"question `+strconv.Itoa(i)+` `+strings.Repeat("words ", 40)+`"}`, `{"role":"assistant","content":[{"type":"text","text":"`+strings.Repeat("answer ", 40)+`"}]}`)
	}
	in := proxyCall()
	in.Request.Body = []byte(`{"model":"claude-x","max_tokens":10,"messages":[` + strings.Join(msgs, ",") + `]}`)
	b.SetBytes(int64(len(in.Request.Body)))
	var buf []byte
	for range b.N {
		buf = AppendInteraction(buf[:0], in)
	}
}
