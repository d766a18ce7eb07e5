package openai

import (
	"encoding/json"
	"fmt"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/diff"
	"github.com/llmtck/llmtck/traffic"
)

// reasoningDetail is one OpenRouter reasoning_details entry, as far as the
// echo rule reads it.
type reasoningDetail struct {
	Type      string  `json:"type"`
	Index     *int    `json:"index"`
	Signature *string `json:"signature"`
	Data      *string `json:"data"`
}

func (d reasoningDetail) key(pos int) string {
	idx := pos
	if d.Index != nil {
		idx = *d.Index
	}
	return fmt.Sprintf("%s#%d", d.Type, idx)
}

// token is the opaque payload an entry carries: a reasoning.text entry's
// signature, a reasoning.encrypted entry's data.
func (d reasoningDetail) token() (field, value string) {
	switch {
	case d.Signature != nil && *d.Signature != "":
		return "signature", *d.Signature
	case d.Data != nil && *d.Data != "":
		return "data", *d.Data
	}
	return "", ""
}

func reasoningDetails(m *traffic.Message) ([]reasoningDetail, bool) {
	raw, ok := m.Extra["reasoning_details"]
	if !ok {
		return nil, false
	}
	var ds []reasoningDetail
	if json.Unmarshal(raw, &ds) != nil {
		return nil, true
	}
	return ds, true
}

// judgeReasoningDetailsUnchanged (OAI-COMPAT-002): on OpenRouter, an assistant
// message that echoes a response's tool calls carries that response's
// signed or encrypted reasoning_details back unchanged. An altered token is
// an error (the model's provider refuses it); an entry left out a warning.
func judgeReasoningDetailsUnchanged(tr *check.Traffic, r *check.Reporter) {
	reported := map[string]bool{}
	walkAll(tr, func(ex *traffic.Exchange, req *traffic.Request, origins func(id string) *source) {
		if ex.Dialect != traffic.DialectOpenRouter {
			return
		}
		for k := range req.Messages {
			m := &req.Messages[k]
			if m.Role != traffic.RoleAssistant {
				continue
			}
			var o *source
			for _, c := range callsOf(m) {
				if o = origins(c.ID); o != nil {
					break
				}
			}
			if o == nil {
				continue
			}
			produced, _ := reasoningDetails(o.message)
			echoed, present := reasoningDetails(m)
			byKey := map[string]reasoningDetail{}
			for p, d := range echoed {
				byKey[d.key(p)] = d
			}
			for p, d := range produced {
				field, want := d.token()
				if field == "" {
					continue
				}
				id := fmt.Sprintf("%d/%s", o.exchange, d.key(p))
				if reported[id] {
					continue
				}
				e, ok := byKey[d.key(p)]
				_, got := e.token()
				switch {
				case !present:
					reported[id] = true
					r.AddSeverity(check.SeverityWarning, ex.Index, "request."+m.Path, "assistant message has no reasoning_details, but interaction %d produced a %s entry with a %s for its tool calls", o.exchange, d.Type, field)
				case !ok || got == "":
					reported[id] = true
					r.AddSeverity(check.SeverityWarning, ex.Index, "request."+m.Path+".reasoning_details", "the %s entry (index %s) with its %s that interaction %d produced is left out", d.Type, d.key(p), field, o.exchange)
				case got != want:
					reported[id] = true
					r.Add(ex.Index, "request."+m.Path+".reasoning_details", "the %s of the %s entry differs from the one interaction %d produced", field, d.Type, o.exchange).Diff = diff.Bytes([]byte(want), []byte(got))
				}
			}
		}
	})
}
