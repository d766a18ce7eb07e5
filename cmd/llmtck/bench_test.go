package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/cassette"
)

// writeConversation writes a cassette of n Anthropic calls: one agent
// conversation that grows by a signed thinking block, a tool call and its
// result per turn (every request repeats the whole history), or, with
// independent, n one-message conversations.
func writeConversation(tb testing.TB, path string, n int, independent bool) {
	tb.Helper()
	var ins []*cassette.Interaction
	history := []string{`{"role":"user","content":[{"type":"text","text":"list the files"}]}`}
	for turn := range n {
		sig := fmt.Sprintf("EqQBCkYIBxgCKkA%dsig%s==", turn, strings.Repeat("x", 120))
		id := fmt.Sprintf("toolu_%06d", turn)
		h := history
		if independent {
			h = []string{fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":"question %d"}]}`, turn)}
		}
		assistant := fmt.Sprintf(`{"type":"thinking","thinking":"Step %d.","signature":%q},{"type":"tool_use","id":%q,"name":"ls","input":{"path":"dir%d"}}`, turn, sig, id, turn)
		ins = append(ins, &cassette.Interaction{
			Request: cassette.Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages",
				Header: map[string][]string{"Anthropic-Version": {"2023-06-01"}, "Content-Type": {"application/json"}},
				Body:   []byte(`{"model":"claude-sonnet-4-5","max_tokens":4096,"thinking":{"type":"enabled","budget_tokens":2048},"system":"You are a file agent.","tools":[{"name":"ls","description":"list","input_schema":{"type":"object"}}],"messages":[` + strings.Join(h, ",") + `]}`)},
			Response: cassette.Response{Status: 200, Header: map[string][]string{"Content-Type": {"application/json"}},
				Body: []byte(fmt.Sprintf(`{"id":"msg_%d","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[%s],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}}`, turn, assistant))},
		})
		history = append(history, `{"role":"assistant","content":[`+assistant+`]}`,
			fmt.Sprintf(`{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":"a.txt b.txt"}]}`, id))
	}
	if err := cassette.Save(path, &cassette.Cassette{Interactions: ins}); err != nil {
		tb.Fatal(err)
	}
}

// writeToolConversation writes a cassette of n calls on wire (chat,
// responses or gemini): one agent conversation that grows by a tool call
// and its result per turn, every request repeating the whole history.
func writeToolConversation(tb testing.TB, path string, n int, wire string) {
	tb.Helper()
	var ins []*cassette.Interaction
	var history []string
	for turn := range n {
		id := fmt.Sprintf("call_%06d", turn)
		var url, body, resp, call, result string
		switch wire {
		case "chat":
			if turn == 0 {
				history = []string{`{"role":"system","content":"You are a file agent."}`, `{"role":"user","content":"list the files"}`}
			}
			call = fmt.Sprintf(`{"role":"assistant","content":"Step %d.","tool_calls":[{"id":%q,"type":"function","function":{"name":"ls","arguments":"{\"path\":\"dir%d\"}"}}]}`, turn, id, turn)
			result = fmt.Sprintf(`{"role":"tool","tool_call_id":%q,"content":"a.txt b.txt"}`, id)
			url = "https://api.openai.com/v1/chat/completions"
			body = `{"model":"gpt-5","tools":[{"type":"function","function":{"name":"ls","description":"list","parameters":{"type":"object"}}}],"messages":[` + strings.Join(history, ",") + `]}`
			resp = fmt.Sprintf(`{"id":"chatcmpl-%d","object":"chat.completion","model":"gpt-5","choices":[{"index":0,"message":%s,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, turn, call)
		case "responses":
			history = append(history, fmt.Sprintf(`{"role":"user","content":"turn %d: list the files"}`, turn))
			call = fmt.Sprintf(`{"type":"function_call","id":"fc_%06d","call_id":%q,"name":"ls","arguments":"{\"path\":\"dir%d\"}"}`, turn, id, turn)
			result = fmt.Sprintf(`{"type":"function_call_output","call_id":%q,"output":"a.txt b.txt"}`, id)
			url = "https://api.openai.com/v1/responses"
			body = `{"model":"gpt-5","store":false,"tools":[{"type":"function","name":"ls","description":"list","parameters":{"type":"object"}}],"input":[` + strings.Join(history, ",") + `]}`
			resp = fmt.Sprintf(`{"id":"resp_%d","object":"response","status":"completed","model":"gpt-5","output":[%s],"usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15}}`, turn, call)
		case "gemini":
			history = append(history, fmt.Sprintf(`{"role":"user","parts":[{"text":"turn %d: list the files"}]}`, turn))
			call = fmt.Sprintf(`{"role":"model","parts":[{"functionCall":{"name":"ls","args":{"path":"dir%d"}}}]}`, turn)
			result = `{"role":"user","parts":[{"functionResponse":{"name":"ls","response":{"output":"a.txt b.txt"}}}]}`
			url = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent"
			body = `{"contents":[` + strings.Join(history, ",") + `],"tools":[{"functionDeclarations":[{"name":"ls","description":"list","parameters":{"type":"object"}}]}]}`
			resp = fmt.Sprintf(`{"candidates":[{"content":%s,"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5}}`, call)
		default:
			tb.Fatalf("no conversation on %s", wire)
		}
		ins = append(ins, &cassette.Interaction{
			Request:  cassette.Request{Method: "POST", URL: url, Header: map[string][]string{"Content-Type": {"application/json"}}, Body: []byte(body)},
			Response: cassette.Response{Status: 200, Header: map[string][]string{"Content-Type": {"application/json"}}, Body: []byte(resp)},
		})
		history = append(history, call, result)
	}
	if err := cassette.Save(path, &cassette.Cassette{Interactions: ins}); err != nil {
		tb.Fatal(err)
	}
}

// TestBenchCheckChild is `llmtck check` as BenchmarkCheck runs it in a
// child process, to measure its time and peak memory alone; it does nothing
// in a normal test run.
func TestBenchCheckChild(t *testing.T) {
	path := os.Getenv("LLMTCK_BENCH_CHECK")
	if path == "" {
		t.Skip("run by BenchmarkCheck")
	}
	start := time.Now()
	code := run([]string{"check", path}, io.Discard, os.Stderr)
	took := time.Since(start)
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			fmt.Println(line)
		}
	}
	fmt.Printf("took %d exit %d\n", took.Nanoseconds(), code)
	os.Exit(0)
}

// BenchmarkCheck runs `llmtck check` in a child process on one 1,000-turn
// growing Anthropic conversation (about 200 MB), on one growing by a tool
// call per turn on Chat Completions, Responses and Gemini (about 110-125
// MB each), and on 1,000 independent interactions, and reports its time
// and its peak resident memory against the file's size.
func BenchmarkCheck(b *testing.B) {
	for _, c := range []struct {
		name  string
		write func(tb testing.TB, path string)
	}{
		{"growing-1000-turns", func(tb testing.TB, path string) { writeConversation(tb, path, 1000, false) }},
		{"growing-1000-turns-chat", func(tb testing.TB, path string) { writeToolConversation(tb, path, 1000, "chat") }},
		{"growing-1000-turns-responses", func(tb testing.TB, path string) { writeToolConversation(tb, path, 1000, "responses") }},
		{"growing-1000-turns-gemini", func(tb testing.TB, path string) { writeToolConversation(tb, path, 1000, "gemini") }},
		{"independent-1000", func(tb testing.TB, path string) { writeConversation(tb, path, 1000, true) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "conversation.yaml")
			c.write(b, path)
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			debug.FreeOSMemory() // the cassette built above is garbage now: off the machine before timing
			var took time.Duration
			var peakKB int
			b.ResetTimer()
			for range b.N {
				cmd := exec.Command(os.Args[0], "-test.run=^TestBenchCheckChild$")
				cmd.Env = append(os.Environ(), "LLMTCK_BENCH_CHECK="+path)
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				sc := bufio.NewScanner(strings.NewReader(string(out)))
				for sc.Scan() {
					f := strings.Fields(sc.Text())
					switch {
					case len(f) >= 2 && f[0] == "VmHWM:":
						kb, _ := strconv.Atoi(f[1])
						peakKB = max(peakKB, kb)
					case len(f) >= 4 && f[0] == "took":
						ns, _ := strconv.ParseInt(f[1], 10, 64)
						took += time.Duration(ns)
						if f[3] != "0" {
							b.Fatalf("check exited %s", f[3])
						}
					}
				}
			}
			b.ReportMetric(took.Seconds()/float64(b.N), "s/check")
			b.ReportMetric(float64(st.Size())/(1<<20), "MB-file")
			b.ReportMetric(float64(peakKB<<10)/float64(st.Size()), "x-peak-rss-of-file")
		})
	}
}
