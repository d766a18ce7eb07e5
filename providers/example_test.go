package providers_test

import (
	"fmt"

	"github.com/llmtck/llmtck/providers"
)

// Decode detects a call's wire and decodes both bodies into the canonical
// model. Opaque payloads stay the exact JSON tokens received — here a
// signature written with a JSON escape — so an echo can be compared byte for
// byte.
func ExampleDecode() {
	ex := providers.Decode(0, providers.Call{
		Method: "POST",
		URL:    "https://api.anthropic.com/v1/messages",
		RequestBody: []byte(`{"model":"claude-sonnet-4-5","max_tokens":1024,"thinking":{"type":"enabled","budget_tokens":1024},
			"messages":[{"role":"user","content":"Weather in Paris?"},
			{"role":"assistant","content":[{"type":"thinking","thinking":"Call the tool.","signature":"EqQB\u002bCkYI=="},
				{"type":"tool_use","id":"toolu_01A","name":"get_weather","input":{"city":"Paris"}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01A","content":"21C"}]}]}`),
		Status:       200,
		ResponseBody: []byte(`{"id":"msg_02","type":"message","role":"assistant","content":[{"type":"text","text":"21°C and sunny."}],"stop_reason":"end_turn"}`),
	})
	fmt.Println(ex.Wire, ex.Request.Model, ex.Request.Thinking.Type)
	for _, m := range ex.Request.Messages {
		for _, b := range m.Blocks {
			fmt.Printf("%s %s", b.Path, b.Type)
			if len(b.Signature) > 0 {
				fmt.Printf(" signature=%s", b.Signature)
			}
			if b.ID != "" || b.ToolCallID != "" {
				fmt.Printf(" id=%s%s", b.ID, b.ToolCallID)
			}
			fmt.Println()
		}
	}
	fmt.Println(ex.Response.StopReason, ex.Response.Output[0].Blocks[0].Text)
	// Output:
	// anthropic claude-sonnet-4-5 enabled
	// messages[0].content text
	// messages[1].content[0] thinking signature="EqQB\u002bCkYI=="
	// messages[1].content[1] tool_call id=toolu_01A
	// messages[2].content[0] tool_result id=toolu_01A
	// end_turn 21°C and sunny.
}
