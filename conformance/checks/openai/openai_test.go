package openai

import "testing"

func TestChatReasoningHost(t *testing.T) {
	for _, c := range []struct{ url, model, want string }{
		{"https://api.deepseek.com/chat/completions", "deepseek-reasoner", "DeepSeek"},
		{"https://api.moonshot.cn/v1/chat/completions", "kimi-k2-thinking", "Moonshot"},
		{"https://api.moonshot.ai/v1/chat/completions", "", "Moonshot"},
		{"http://localhost:8080/v1/chat/completions", "DeepSeek-V3.2", "DeepSeek"},
		{"http://localhost:8080/v1/chat/completions", "moonshot-v1-8k", "Moonshot"},
		{"https://openrouter.ai/api/v1/chat/completions", "deepseek/deepseek-r1", ""},
		{"https://api.groq.com/openai/v1/chat/completions", "moonshotai/kimi-k2-instruct", ""},
		{"https://api.openai.com/v1/chat/completions", "gpt-4o", ""},
		{"::not a url", "gpt-4o", ""},
	} {
		if got := reasoningHost(c.url, c.model); got != c.want {
			t.Errorf("reasoningHost(%q, %q) = %q, want %q", c.url, c.model, got, c.want)
		}
	}
}
