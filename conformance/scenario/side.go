package scenario

import (
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/rawjson"
)

// SideText is what the simulator answers a side request with: a call
// outside the scenario's conversation (a title, a summary with its own
// system prompt), which real harnesses make and a script cannot foresee.
const SideText = "Side reply from the llmtck simulator."

// IsSide reports whether req does not continue the scenario's
// conversation: none of its user messages holds a prompt of the scenario
// (nor a compaction summary of it). It returns why, for the log.
func (s *Scenario) IsSide(req *engine.Request) (string, bool) {
	var texts []string
	for _, m := range req.Messages {
		if m.Role != engine.RoleUser {
			continue
		}
		for _, b := range m.Blocks {
			if b.Type == engine.BlockText {
				texts = append(texts, b.Text)
			}
		}
	}
	for _, t := range s.Turns {
		for _, text := range texts {
			if t.Prompt != "" && strings.Contains(text, t.Prompt) || t.Compact != "" && strings.Contains(text, t.Compact) {
				return "", false
			}
		}
	}
	return "none of its user messages holds a prompt of the scenario", true
}

// SideReply answers a side request on wire w with SideText, in the wire's
// own shape, streamed when asked.
func SideReply(m *Minter, w engine.Wire, req *engine.Request, stream bool) ([][]byte, string, error) {
	text := rawjson.Quote(SideText)
	var content json.RawMessage
	switch w {
	case engine.WireAnthropic:
		content = json.RawMessage(`{"type":"text","text":` + string(text) + `}`)
	case engine.WireBedrock, engine.WireGemini:
		content = json.RawMessage(`{"text":` + string(text) + `}`)
	case engine.WireOpenAI:
		content = json.RawMessage(`{"role":"assistant","content":` + string(text) + `}`)
	case engine.WireResponses:
		content = json.RawMessage(`{"id":"msg_side","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"text":` + string(text) + `}]}`)
	}
	side := &Scenario{Name: "side", Wire: w, Steps: []Step{{Wire: w, Model: req.Model, Content: []json.RawMessage{content}}}}
	return side.Respond(m, 0, req, stream)
}
