package lint

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
)

func TestFillInCompletesTheProviderText(t *testing.T) {
	got := fillIn("messages.N.content.M: unexpected `tool_use_id` found in `tool_result` blocks: toolu_…. Each …",
		"messages[4].content[1]", "tool_result toolu_01A names no tool_use of messages[3]")
	want := "messages.4.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01A. Each …"
	if got != want {
		t.Fatalf("fillIn = %q\nwant     %q", got, want)
	}
}

func TestRejectionStatus(t *testing.T) {
	status, msg := providerAnswer(checks.Lookup("ANT-TOOL-001"), check.Finding{Check: "ANT-TOOL-001", Location: "request.messages[1]", Message: "tool_use toolu_9 has no tool_result"})
	want := "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_9. Each `tool_use` block must have a corresponding `tool_result` block in the next message."
	if status != 400 || msg != want {
		t.Fatalf("Rejection = %d %q\nwant 400 %q", status, msg, want)
	}
	if status, _ := providerAnswer(checks.Lookup("OAI-RSN-003"), check.Finding{Check: "OAI-RSN-003"}); status != 404 {
		t.Fatalf("OAI-RSN-003 answered %d, want 404", status)
	}
}

func TestRejectionSendsOneAlternative(t *testing.T) {
	_, msg := providerAnswer(checks.Lookup("GEM-SIG-003"), check.Finding{Check: "GEM-SIG-003", Location: "request.contents[1].parts[0]", Message: "thoughtSignature of functionCall get_weather differs"})
	if msg != "Corrupted thought signature." {
		t.Errorf("GEM-SIG-003 answered %q, want the first alternative only", msg)
	}
	_, msg = providerAnswer(checks.Lookup("OAI-RSN-004"), check.Finding{Check: "OAI-RSN-004", Location: "request.input[2]", Message: "encrypted_content of cmp_0a1 changed"})
	if want := "The encrypted content for item cmp_0a1 could not be verified. Reason: Encrypted content could not be decrypted or parsed."; msg != want {
		t.Errorf("OAI-RSN-004 answered %q, want %q (the alternative naming the item)", msg, want)
	}
	_, msg = providerAnswer(checks.Lookup("GEM-SIG-002"), check.Finding{Check: "GEM-SIG-002", Location: "request.contents[3].parts[1]", Message: "functionCall get_weather opens a step of the current turn without a thoughtSignature"})
	if !strings.Contains(msg, "function call `default_api:get_weather` , position 1.") {
		t.Errorf("GEM-SIG-002 answered %q, want the call's name and position filled in", msg)
	}
}
