package harness

import (
	"cmp"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// geminiContents puts the history in Gemini's content form. Model turns go
// as received: every part in place, signatures and signature-only parts
// included (G1). Besides:
//   - the results answering a model turn become one user content of
//     functionResponse parts, one per call, in the order of the calls
//     (G6, G7); content after the results in the same message follows as
//     its own user content;
//   - each result is functionResponse{name, response}, the response
//     {"output": text}, or {"error": text} for a failed or cancelled call
//     (docs/provider-rules.md §4.2, §4.5); media stays in the response's parts;
//   - ids the loop made up for calls that came without one are taken off
//     calls and results (LocalCallIDPrefix).
func geminiContents(msgs []traffic.Message) []traffic.Message {
	out := make([]traffic.Message, 0, len(msgs))
	order := map[string]int{} // call id → position in the latest model turn
	lastAssistant := false
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == traffic.RoleAssistant {
			if !lastAssistant {
				clear(order)
			}
			lastAssistant = true
			out = append(out, geminiModelTurn(m, order))
			continue
		}
		lastAssistant = false
		if leadingResults(m) == 0 {
			out = append(out, m)
			continue
		}
		// Gather the results of consecutive messages into one user turn.
		turn := traffic.Message{Role: traffic.RoleUser}
		var rest []traffic.Block
		for ; i < len(msgs) && leadingResults(msgs[i]) > 0; i++ {
			n := leadingResults(msgs[i])
			for _, b := range msgs[i].Blocks[:n] {
				turn.Blocks = append(turn.Blocks, geminiResult(b))
			}
			if rest = msgs[i].Blocks[n:]; len(rest) > 0 {
				break
			}
		}
		if len(rest) == 0 {
			i-- // the loop's i++ comes back to the message after the results
		}
		slices.SortStableFunc(turn.Blocks, func(a, b traffic.Block) int {
			return cmp.Compare(order[a.ToolCallID], order[b.ToolCallID])
		})
		for j := range turn.Blocks {
			if IsLocalCallID(turn.Blocks[j].ToolCallID) {
				turn.Blocks[j].ToolCallID = ""
			}
		}
		out = append(out, turn)
		if len(rest) > 0 {
			out = append(out, traffic.Message{Role: traffic.RoleUser, Blocks: rest})
		}
	}
	return out
}

// leadingResults counts the tool results a message starts with; a tool
// message holds nothing else.
func leadingResults(m traffic.Message) int {
	if m.Role != traffic.RoleTool && m.Role != traffic.RoleUser {
		return 0
	}
	n := 0
	for n < len(m.Blocks) && m.Blocks[n].Type == traffic.BlockToolResult {
		n++
	}
	return n
}

// geminiModelTurn records the turn's call order, keyed by the transcript's
// ids (results still carry them), and copies m with local ids taken off.
func geminiModelTurn(m traffic.Message, order map[string]int) traffic.Message {
	var blocks []traffic.Block
	for j, b := range m.Blocks {
		if b.Type != traffic.BlockToolCall {
			continue
		}
		order[b.ID] = len(order)
		if IsLocalCallID(b.ID) {
			if blocks == nil {
				blocks = slices.Clone(m.Blocks)
			}
			blocks[j].ID = ""
		}
	}
	if blocks != nil {
		m.Blocks = blocks
	}
	return m
}

// geminiResult returns a copy of a result with its text as the
// functionResponse.response object.
func geminiResult(b traffic.Block) traffic.Block {
	if b.ResultRaw == nil {
		key := "output"
		if b.IsError {
			key = "error"
		}
		var text []string
		var media []traffic.Block
		for _, c := range b.Content {
			if c.Type == traffic.BlockText {
				text = append(text, c.Text)
			} else {
				media = append(media, c)
			}
		}
		var o rawjson.Object
		o.String(key, strings.Join(text, "\n"))
		b.ResultRaw, b.Content = o.Bytes(), media
	}
	b.IsError = false // not a Gemini field: the "error" key says it
	return b
}
