package proxy

import (
	"encoding/base64"
	"net/http"
	"slices"

	"github.com/llmtck/llmtck/cassette"
)

// HeaderEphemeral is the request header a harness sets to tell the recorder
// which content it was told to send once and never persist (the ephemeral
// messages of docs/reference-model.md, seed 000: a schema-retry feedback): the
// content, UTF-8, in standard base64, one header value per item. The recorder
// strips it before forwarding and recording, lints with it live, and writes the
// content to the cassette's llmtck_ephemeral list, so `llmtck check` finds an
// ephemeral message that leaked into history (HIST-005) as the simulator does.
const HeaderEphemeral = "X-Llmtck-Ephemeral"

// takeEphemeral removes HeaderEphemeral from h and returns what it declared;
// values that are not base64 are kept as they are.
func takeEphemeral(h http.Header) []string {
	vs := h.Values(HeaderEphemeral)
	if len(vs) == 0 {
		return nil
	}
	h.Del(HeaderEphemeral)
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		if b, err := base64.StdEncoding.DecodeString(v); err == nil {
			v = string(b)
		}
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// declare adds ephemeral content to the book: the linter judges the next
// requests with it, and Close writes it to the cassette.
func (b *book) declare(items []string) {
	if len(items) == 0 {
		return // most calls: no lock taken
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range items {
		if slices.Contains(b.ephemeral, e) {
			continue
		}
		b.ephemeral = append(b.ephemeral, e)
		if b.lint != nil {
			b.lint.AddEphemeral(e)
		}
	}
}

// writeEphemeral adds the book's ephemeral content to its cassette file,
// rewriting it atomically, once the sink has closed.
func (b *book) writeEphemeral() error {
	b.mu.RLock()
	items := slices.Clone(b.ephemeral)
	b.mu.RUnlock()
	if len(items) == 0 {
		return nil
	}
	c, err := cassette.Load(b.path)
	if err != nil {
		return err
	}
	added := false
	for _, e := range items {
		if !slices.Contains(c.Ephemeral, e) {
			c.Ephemeral = append(c.Ephemeral, e)
			added = true
		}
	}
	if !added {
		return nil
	}
	return cassette.Save(b.path, c)
}
