package conformance

import "testing"

func TestFillInCompletesTheProviderText(t *testing.T) {
	got := fillIn("messages.N.content.M: unexpected `tool_use_id` found in `tool_result` blocks: toolu_…. Each …",
		"messages[4].content[1]", "tool_result toolu_01A names no tool_use of messages[3]")
	want := "messages.4.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01A. Each …"
	if got != want {
		t.Fatalf("fillIn = %q\nwant     %q", got, want)
	}
}

func TestRejectionStatus(t *testing.T) {
	status, msg := Rejection(Finding{Check: "ANT-TOOL-001", Location: "request.messages[1]", Message: "tool_use toolu_9 has no tool_result"})
	want := "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_9. Each `tool_use` block must have a corresponding `tool_result` block in the next message."
	if status != 400 || msg != want {
		t.Fatalf("Rejection = %d %q\nwant 400 %q", status, msg, want)
	}
	if status, _ := Rejection(Finding{Check: "OAI-RSN-003"}); status != 404 {
		t.Fatalf("OAI-RSN-003 answered %d, want 404", status)
	}
}
