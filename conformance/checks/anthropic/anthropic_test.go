package anthropic

import "testing"

func TestAntLiveCredential(t *testing.T) {
	for v, live := range map[string]bool{
		"":                                    false,
		"REDACTED":                            false,
		"<redacted>":                          false,
		"test-api-key":                        false,
		"Bearer test-api-key":                 false,
		"fake-api-key-for-testing-only":       false,
		"sk-ant-xxxxxxxxxxxxxxxxxxxxxxxxxxxx": false,
		"sk-ant-api03-Q7mZ2xLp9VbN4kR8sT1wY6uJ3hG5fD0a":                                            true,
		"Bearer sk-ant-oat01-Q7mZ2xLp9VbN4kR8sT1wY6uJ3hG5fD0a":                                     true,
		"AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPL3/20250101/us-east-1/bedrock/aws4_request": true,
	} {
		if got := antLiveCredential(v) != ""; got != live {
			t.Errorf("antLiveCredential(%q) live = %v, want %v", v, got, live)
		}
	}
}

func TestAntModelFamily(t *testing.T) {
	for model, family := range map[string]string{
		"claude-sonnet-4-0":                          "claude-sonnet-4",
		"claude-sonnet-4-20250514":                   "claude-sonnet-4",
		"claude-sonnet-4-5-20250929":                 "claude-sonnet-4-5",
		"claude-3-7-sonnet-latest":                   "claude-3-7-sonnet",
		"us.anthropic.claude-opus-4-1-20250805-v1:0": "claude-opus-4-1",
		"claude-opus-4-1@20250805":                   "claude-opus-4-1",
	} {
		if got := antModelFamily(model); got != family {
			t.Errorf("antModelFamily(%q) = %q, want %q", model, got, family)
		}
	}
}
