package scenario

import (
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// SideText is what the simulator answers a side request with: a call
// outside the scenario's conversation (a title, a summary with its own
// system prompt), which real harnesses make and a script cannot foresee.
const SideText = "Side reply from the llmtck simulator."

// IsSide reports whether req does not continue the scenario's
// conversation: none of its user messages holds a prompt of the scenario
// (nor a compaction summary of it), or it holds one under a system prompt
// of its own without the scenario's tools (a title or summary request that
// quotes the user's first message). It returns why, for the log.
func (s *Scenario) IsSide(req *traffic.Request) (string, bool) {
	var texts []string
	for _, m := range req.Messages {
		if m.Role != traffic.RoleUser {
			continue
		}
		for _, b := range m.Blocks {
			if b.Type == traffic.BlockText {
				texts = append(texts, b.Text)
			}
		}
	}
	holds := false
	for _, t := range s.Turns {
		for _, text := range texts {
			if t.Prompt != "" && strings.Contains(text, t.Prompt) || t.Compact != "" && strings.Contains(text, t.Compact) {
				holds = true
			}
		}
	}
	if !holds {
		return "none of its user messages holds a prompt of the scenario", true
	}
	// A harness may add to the system prompt (a date, a reminder), so only
	// one that does not contain the scenario's is another's; a request
	// with none is the conversation's, its system prompt forgotten.
	if sys := systemText(req); s.System != "" && strings.TrimSpace(sys) != "" && !strings.Contains(sys, s.System) && (len(s.Tools) == 0 || len(req.Tools) == 0) {
		return "it quotes a prompt of the scenario under a system prompt of its own, without the scenario's tools", true
	}
	return "", false
}

// systemText is req's system prompt: the top-level one and any system or
// developer message.
func systemText(req *traffic.Request) string {
	var b strings.Builder
	add := func(blocks []traffic.Block) {
		for _, bl := range blocks {
			b.WriteString(bl.Text)
			b.WriteByte('\n')
		}
	}
	add(req.System)
	for _, m := range req.Messages {
		if m.Role == traffic.RoleSystem || m.Role == traffic.RoleDeveloper {
			add(m.Blocks)
		}
	}
	return b.String()
}

// SideReply answers a side request on wire w with SideText, in the wire's
// own shape, streamed when asked.
func SideReply(m *Minter, w traffic.Wire, req *traffic.Request, stream bool) ([][]byte, string, error) {
	text := rawjson.Quote(SideText)
	var content json.RawMessage
	switch w {
	case traffic.WireAnthropic:
		content = json.RawMessage(`{"type":"text","text":` + string(text) + `}`)
	case traffic.WireBedrock, traffic.WireGemini:
		content = json.RawMessage(`{"text":` + string(text) + `}`)
	case traffic.WireOpenAI:
		content = json.RawMessage(`{"role":"assistant","content":` + string(text) + `}`)
	case traffic.WireResponses:
		content = json.RawMessage(`{"id":"msg_side","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"text":` + string(text) + `}]}`)
	}
	side := &Scenario{Name: "side", Wire: w, Steps: []Step{{Wire: w, Model: req.Model, Content: []json.RawMessage{content}}}}
	return side.Respond(m, 0, req, stream)
}
