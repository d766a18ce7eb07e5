package openai

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
)

// OpenRouter streams reasoning_details: entries of type reasoning.text
// (text, then a signature for Anthropic models), reasoning.summary and
// reasoning.encrypted (data), each delta naming its entry by index. The
// reassembled list goes on the message's Extra["reasoning_details"], as a
// non-streamed response carries it, so the echo checks read one shape.

// detailState is one reasoning_details entry being put together.
type detailState struct {
	typ, format, id       string
	text, summary         strings.Builder
	signature, data       strings.Builder
	hasText, hasSummary   bool
	hasSignature, hasData bool
}

type detailDelta struct {
	Type      string  `json:"type"`
	Index     *int    `json:"index"`
	ID        string  `json:"id"`
	Format    string  `json:"format"`
	Text      *string `json:"text"`
	Summary   *string `json:"summary"`
	Signature *string `json:"signature"`
	Data      *string `json:"data"`
}

// addDetails folds one delta's reasoning_details into the choice's entries.
func (cs *choiceState) addDetails(raw []json.RawMessage) {
	for k, item := range raw {
		var d detailDelta
		if json.Unmarshal(item, &d) != nil {
			continue
		}
		idx := k
		if d.Index != nil {
			idx = *d.Index
		}
		if idx < 0 || idx > len(cs.details)+maxIndexGrowth {
			continue
		}
		if cs.details == nil {
			cs.details = map[int]*detailState{}
		}
		ds := cs.details[idx]
		if ds == nil {
			ds = &detailState{}
			cs.details[idx] = ds
		}
		for _, s := range []struct {
			dst *string
			v   string
		}{{&ds.typ, d.Type}, {&ds.format, d.Format}, {&ds.id, d.ID}} {
			if s.v != "" {
				*s.dst = s.v
			}
		}
		appendTo(&ds.text, &ds.hasText, d.Text)
		appendTo(&ds.summary, &ds.hasSummary, d.Summary)
		appendTo(&ds.signature, &ds.hasSignature, d.Signature)
		appendTo(&ds.data, &ds.hasData, d.Data)
	}
}

func appendTo(b *strings.Builder, seen *bool, s *string) {
	if s != nil {
		b.WriteString(*s)
		*seen = true
	}
}

// detailsJSON writes the reassembled entries in index order.
func (cs *choiceState) detailsJSON() json.RawMessage {
	idxs := make([]int, 0, len(cs.details))
	for k := range cs.details {
		idxs = append(idxs, k)
	}
	sort.Ints(idxs)
	items := make([]json.RawMessage, 0, len(idxs))
	for _, k := range idxs {
		ds := cs.details[k]
		var o rawjson.Object
		o.String("type", ds.typ)
		if ds.hasText {
			o.String("text", ds.text.String())
		}
		if ds.hasSummary {
			o.String("summary", ds.summary.String())
		}
		if ds.hasSignature {
			o.String("signature", ds.signature.String())
		}
		if ds.hasData {
			o.String("data", ds.data.String())
		}
		if ds.id != "" {
			o.String("id", ds.id)
		}
		if ds.format != "" {
			o.String("format", ds.format)
		}
		o.Int("index", k)
		items = append(items, o.Bytes())
	}
	return rawjson.ArrayOf(items)
}
