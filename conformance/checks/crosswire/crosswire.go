// Package crosswire holds the checks that look at every wire at once: bodies
// decode as their wire, opaque payloads are kept as received, no live
// credential is recorded and no interaction is cut off (XP-*).
package crosswire

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/diff"
	"github.com/llmtck/llmtck/conformance/internal/origin"
	"github.com/llmtck/llmtck/conformance/internal/show"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// XP-RAW-001 looks at every wire at once: an opaque payload is echoed as
// the exact JSON string it came as. Providers compare decoded values, so a
// re-encoded echo passes — which is why it is only a note — but it shows a
// store or proxy that round-trips payloads through another representation,
// the step that loses padding, alphabet or bytes on the next change.
var checks = []*check.Check{
	&check.Check{
		ID: "XP-DECODE-001", Title: "Bodies decode as their wire", Severity: check.SeverityError, Scope: "C",
		Law: "Every request and response body of a provider call decodes as the wire its URL and shape name.",
		Troubleshoot: "A body that does not decode is either not what the provider sent (a scrubber or recorder rewrote it) or a wire llmtck does not know yet; the message says which field broke. " +
			"A body in a form the provider accepts but does not document as its own (one value for a repeated field, a number as a string) decodes, is reported as info saying how it was read, and every other check still runs on it.",
		Since:    "0.1.0",
		Evidence: check.Evidence{Sources: []string{"every provider parses the body as its wire: one that does not decode is refused or was rewritten"}},
		Judge:    judgeDecode,
	},
	&check.Check{
		ID: "XP-RAW-001", Title: "Opaque payloads kept as received", Severity: check.SeverityInfo, Scope: "C",
		Law:           "Opaque payloads (Anthropic signature and redacted data, OpenAI encrypted_content, Gemini thoughtSignature) are stored and echoed as the JSON strings received: not re-encoded into another base64 alphabet or padding, not re-escaped, and never as another JSON type.",
		ProviderError: "",
		Troubleshoot: "A re-encoded echo is equal to the original after decoding but not byte for byte. pydantic-ai echoes Gemini signatures in URL-safe base64 (Python's urlsafe_b64encode of the bytes it kept), go-genai models thoughtSignature as []byte and writes standard base64 back, and some JSON encoders write \\/ for /. " +
			"Providers decode before comparing, so the request passes; but the payload went through a decode/encode round trip, and any later change to that path (a different alphabet, trimmed padding, a text re-encoding) breaks the signature. " +
			"Keep the payload as the raw JSON string you received (json.RawMessage, not []byte or a decoded string) and write it back unchanged. A payload stored as a number, object or array is not a string any provider accepts.",
		Since: "0.1.0",
		Judge: judgeOpaqueKept,
	},
	secretCheck,
	tornCheck,
}

func judgeOpaqueKept(tr *check.Traffic, r *check.Reporter) {
	if tr.Latest && len(tr.Exchanges) > 0 && !hasPayload(tr, len(tr.Exchanges)-1) {
		// A live judgement wants the last exchange's findings only, and
		// one that adds no payload has none: the walk over the requests
		// before it, as long as the conversation, is skipped.
		return
	}
	origins := origin.Of(tr)
	reported := map[string]bool{}
	// judged holds the echoed tokens already judged: a growing history
	// sends each again in every request, and the verdict does not change
	// (a token carried by an earlier response stays carried).
	judged := map[string]bool{}
	for i := tr.From; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.Request != nil {
			msgs := ex.Request.Messages
			for m := addedFrom(tr, i); m < len(msgs); m++ {
				payloads(&msgs[m], ex.Wire, func(b *traffic.Block, field string, raw json.RawMessage) {
					loc := "request." + b.Path + "." + field
					if raw == nil {
						notString(r, reported, ex.Index, loc, b.Extra[field])
						return
					}
					if judged[string(raw)] {
						return
					}
					judged[string(raw)] = true
					if carried(origins, raw, i) {
						return
					}
					o, found := origins.First("", origin.PayloadValue, origin.Value(raw), i)
					switch {
					case found:
						was := origins.Payload(o)
						how := "base64 decoding"
						if a, _ := rawjson.String(was); a == unquoted(raw) {
							how = "JSON unescaping"
						}
						at := "response." + origins.Block(o).Path + "." + o.Field
						f := r.Add(ex.Index, loc, "%s is the one interaction %d's response carried (%s), re-encoded: equal after %s, not byte for byte", field, origins.Exchange(o).Index, at, how)
						f.Diff = diff.Bytes(was, raw)
					case bytes.IndexByte(raw, '\\') >= 0:
						r.Add(ex.Index, loc, "%s holds JSON escape sequences, which no provider writes in an opaque payload: it was re-encoded on the way", field)
					}
				})
			}
		}
		if ex.Response == nil {
			continue
		}
		for m := range ex.Response.Output {
			payloads(&ex.Response.Output[m], ex.Wire, func(b *traffic.Block, field string, raw json.RawMessage) {
				loc := "response." + b.Path + "." + field
				if raw == nil {
					notString(r, reported, ex.Index, loc, b.Extra[field])
					return
				}
			})
		}
	}
}

// addedFrom is where the messages exchange i's request adds begin: a
// request that extends the one before it in memory (a growing conversation
// decoded through a memo) repeats its payloads, every one judged or
// reported already. 0 for any other request.
func addedFrom(tr *check.Traffic, i int) int {
	for j := i - 1; j >= tr.From; j-- {
		if prev := tr.Exchanges[j].Request; prev != nil {
			if thread.StartsWith(tr.Exchanges[i].Request.Messages, prev.Messages) {
				return len(prev.Messages)
			}
			return 0
		}
	}
	return 0
}

// hasPayload reports whether exchange i holds a payload judgeOpaqueKept
// judges: in the messages its request adds (addedFrom), or in its response.
func hasPayload(tr *check.Traffic, i int) bool {
	ex := &tr.Exchanges[i]
	found := false
	note := func(*traffic.Block, string, json.RawMessage) { found = true }
	if ex.Request != nil {
		msgs := ex.Request.Messages
		for m := addedFrom(tr, i); m < len(msgs) && !found; m++ {
			payloads(&msgs[m], ex.Wire, note)
		}
	}
	if ex.Response != nil {
		for m := range ex.Response.Output {
			payloads(&ex.Response.Output[m], ex.Wire, note)
		}
	}
	return found
}

// payloads calls fn for every opaque payload of a message's blocks, with
// the wire's name for the field. A Gemini signature that is not a JSON
// string is kept by the codec in Extra only; fn gets it with raw == nil.
func payloads(m *traffic.Message, wire traffic.Wire, fn func(b *traffic.Block, field string, raw json.RawMessage)) {
	sigField := "signature"
	if wire == traffic.WireGemini {
		sigField = "thoughtSignature"
	}
	for i := range m.Blocks {
		b := &m.Blocks[i]
		if b.Signature != nil {
			fn(b, sigField, b.Signature)
		}
		if b.Data != nil {
			fn(b, "data", b.Data)
		}
		if b.EncryptedContent != nil {
			fn(b, "encrypted_content", b.EncryptedContent)
		}
		if wire != traffic.WireGemini {
			continue
		}
		for _, k := range []string{"thoughtSignature", "thought_signature"} {
			if v, ok := b.Extra[k]; ok && rawjson.Kind(v) != "string" {
				fn(b, k, nil)
			}
		}
	}
}

func notString(r *check.Reporter, reported map[string]bool, ex int, loc string, v json.RawMessage) {
	key := "\x01" + loc + string(v)
	if reported[key] {
		return
	}
	reported[key] = true
	r.Add(ex, loc, "the payload is stored as a JSON %s (%s), not as the string it was sent as", rawjson.Kind(v), show.Clip(string(rawjson.Compact(v)), 40))
}

func unquoted(raw json.RawMessage) string {
	s, _ := rawjson.String(raw)
	return s
}

func judgeDecode(tr *check.Traffic, r *check.Reporter) {
	for i := tr.From; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.RequestErr != "" {
			r.Add(ex.Index, "request", "%s does not decode as %s: %s", "request", ex.Wire, ex.RequestErr)
		}
		if ex.Request != nil {
			for _, n := range ex.Request.Notes {
				r.AddSeverity(check.SeverityInfo, ex.Index, "request", "request decodes as %s leniently: %s", ex.Wire, n)
			}
		}
		if ex.ResponseErr != "" {
			r.Add(ex.Index, "response", "%s does not decode as %s: %s", "response", ex.Wire, ex.ResponseErr)
		}
	}
}

// Checks returns the family's checks, in the order they are declared.
func Checks() []*check.Check { return slices.Clone(checks) }

// carried reports whether a response before exchange before carried the
// token raw byte for byte.
func carried(origins *origin.Index, raw json.RawMessage, before int) bool {
	for _, o := range origins.All(origin.Payload, origin.String(raw), before) {
		if bytes.Equal(origins.Payload(o), raw) {
			return true
		}
	}
	return false
}
