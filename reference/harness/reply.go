package harness

import "github.com/llmtck/llmtck/traffic"

// replyOf turns a decoded response into the messages the transcript
// records:
//   - output a stream started but never finished (Stream.Partial) is left
//     out: it cannot be echoed as if complete;
//   - every output message is the assistant's;
//   - on the Responses wire each output item stays its own message, in
//     order; a trailing reasoning item that no item follows (an incomplete
//     response) is left out, as the API rejects it alone (R1);
//   - on the other wires the output is one assistant message.
//
// Empty messages are left out: there is nothing in them to send back.
func replyOf(w traffic.Wire, resp *traffic.Response) []traffic.Message {
	partial := map[int]bool{}
	if resp.Stream != nil {
		for _, i := range resp.Stream.Partial {
			partial[i] = true
		}
	}
	var out []traffic.Message
	for i, m := range resp.Output {
		if partial[i] || len(m.Blocks) == 0 {
			continue
		}
		m.Role = traffic.RoleAssistant
		out = append(out, m)
	}
	if w == traffic.WireResponses {
		for len(out) > 0 {
			if _, ok := reasoningOf(out[len(out)-1]); !ok {
				break
			}
			out = out[:len(out)-1]
		}
		return out
	}
	if len(out) <= 1 {
		return out
	}
	joined := traffic.Message{Role: traffic.RoleAssistant}
	for _, m := range out {
		joined.Blocks = append(joined.Blocks, m.Blocks...)
	}
	return []traffic.Message{joined}
}
