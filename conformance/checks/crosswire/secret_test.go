package crosswire

import "testing"

// Values of credential headers and query parameters: placeholders and
// local servers' stand-ins are not live, key-shaped values are.
func TestLive(t *testing.T) {
	for v, want := range map[string]bool{
		"":                                    false,
		"REDACTED":                            false,
		"{REDACTED}":                          false,
		"<redacted>":                          false,
		"<ANTHROPIC_API_KEY>":                 false,
		"**REDACTED**":                        false,
		"XXX":                                 false,
		"***":                                 false,
		"test-api-key":                        false,
		"Bearer test-api-key":                 false,
		"fake-api-key-for-testing-only":       false,
		"sk-ant-xxxxxxxxxxxxxxxxxxxxxxxxxxxx": false,
		"Bearer ollama":                       false,
		"gk-1234":                             false,
		"sk-ant-api03-Q7mZ2xLp9VbN4kR8sT1wY6uJ3hG5fD0a":                                            true,
		"Bearer sk-ant-oat01-Q7mZ2xLp9VbN4kR8sT1wY6uJ3hG5fD0a":                                     true,
		"AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPL3/20250101/us-east-1/bedrock/aws4_request": true,
		"AIzaSyD4f00xXkqL1m2n3o4p5q6r7s8t9u0v1w2":                                                  true,
		"Bearer ya29.a0AfB_byC3x9LmP0aB7cD2eF4gH6iJ8kL0mN2oP4q":                                    true,
		"gk-9fQ2mX7vL4pR8sT1wB6nY3cH":                                                              true,
	} {
		if got := live(v); got != want {
			t.Errorf("live(%q) = %t, want %t", v, got, want)
		}
	}
}
