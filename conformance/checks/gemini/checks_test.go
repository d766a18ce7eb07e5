package gemini_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// Hand-built Gemini traffic for the rules the corpus has no shape for:
// parts are written out as JSON, responses are generateContent documents.

func sigOf(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func user(text string) string {
	return fmt.Sprintf(`{"role":"user","parts":[{"text":%q}]}`, text)
}

func modelTurn(parts ...string) string {
	return `{"role":"model","parts":[` + strings.Join(parts, ",") + `]}`
}

func resultsTurn(names ...string) string {
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf(`{"functionResponse":{"name":%q,"response":{"output":"ok"}}}`, n))
	}
	return `{"role":"user","parts":[` + strings.Join(parts, ",") + `]}`
}

// callPart is a functionCall part; sig "" leaves the signature out.
func callPart(name, sig string) string {
	if sig == "" {
		return fmt.Sprintf(`{"functionCall":{"name":%q,"args":{}}}`, name)
	}
	return fmt.Sprintf(`{"functionCall":{"name":%q,"args":{}},"thoughtSignature":%q}`, name, sig)
}

func textPart(text, sig string) string {
	if sig == "" {
		return fmt.Sprintf(`{"text":%q}`, text)
	}
	return fmt.Sprintf(`{"text":%q,"thoughtSignature":%q}`, text, sig)
}

func responseBody(parts ...string) string {
	return `{"candidates":[{"content":` + modelTurn(parts...) + `,"finishReason":"STOP","index":0}]}`
}

// analysis builds traffic from request and response bodies, in pairs, for
// the model.
func trafficOf(t testing.TB, model string, bodies ...string) *check.Traffic {
	t.Helper()
	return trafficThrough(t, nil, model, bodies...)
}

// trafficThrough is trafficOf with the requests decoded through memo,
// as check and the recorder decode them: a request that repeats the one
// before shares its messages in memory. A nil memo decodes each alone.
func trafficThrough(t testing.TB, memo *traffic.Memo, model string, bodies ...string) *check.Traffic {
	t.Helper()
	tr := &check.Traffic{}
	for i := 0; i+1 < len(bodies); i += 2 {
		if !json.Valid([]byte(bodies[i])) {
			t.Fatalf("not JSON: %s", bodies[i])
		}
		ex := providers.Decode(len(tr.Exchanges), providers.Call{
			Method: "POST", URL: "https://generativelanguage.googleapis.com/v1beta/models/" + model + ":generateContent",
			RequestBody: []byte(bodies[i]), Status: 200, ResponseBody: []byte(bodies[i+1]), Memo: memo,
		})
		if ex.RequestErr != "" || ex.ResponseErr != "" || ex.Wire != traffic.WireGemini {
			t.Fatalf("exchange %d: %s %s %s", ex.Index, ex.Wire, ex.RequestErr, ex.ResponseErr)
		}
		tr.Exchanges = append(tr.Exchanges, ex)
	}
	return tr
}

func requestBody(contents ...string) string {
	return `{"contents":[` + strings.Join(contents, ",") + `]}`
}

// findings runs the Gemini family and renders each finding as
// "[i] severity CHECK location".
func findings(tr *check.Traffic) []string {
	checks, _ := checks.Select([]string{"GEM-*"}, nil)
	var out []string
	for _, f := range check.Judge(tr, checks) {
		out = append(out, fmt.Sprintf("[%d] %s %s %s", f.Interaction, f.Severity, f.Check, f.Location))
	}
	return out
}

func TestGemSignatureRules(t *testing.T) {
	a, b, c, text := sigOf("sig-a"), sigOf("sig-b"), sigOf("sig-c"), sigOf("sig-text")
	q1, q2 := user("What is in the repo?"), user("And the tests?")
	cases := []struct {
		name   string
		model  string
		bodies []string
		want   []string
	}{
		{
			// go-genai's chat echoes a stream one chunk per content: one
			// model turn, signatures on the parts they came on.
			name: "stream echoed one chunk per content", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1),
				`data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Let me look.","thought":true}]}}]}` + "\r\n\r\n" +
					`data: {"candidates":[{"content":{"role":"model","parts":[` + callPart("ls", a) + `]}}]}` + "\r\n\r\n" +
					`data: {"candidates":[{"content":{"role":"model","parts":[{"text":"","thoughtSignature":"` + b + `"}]},"finishReason":"STOP"}]}` + "\r\n\r\n",
				requestBody(q1, modelTurn(`{"text":"Let me look.","thought":true}`), modelTurn(callPart("ls", a)), modelTurn(textPart("", b)), resultsTurn("ls")),
				responseBody(textPart("Two files.", "")),
			},
		},
		{
			name: "parallel calls: only the first is signed", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1), responseBody(callPart("ls", a), callPart("cat", "")),
				requestBody(q1, modelTurn(callPart("ls", a), callPart("cat", "")), resultsTurn("ls", "cat")), responseBody(textPart("Done.", "")),
			},
		},
		{
			name: "signature copied onto the second parallel call", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1), responseBody(callPart("ls", a), callPart("cat", "")),
				requestBody(q1, modelTurn(callPart("ls", a), callPart("cat", a)), resultsTurn("ls", "cat")), responseBody(textPart("Done.", "")),
			},
			want: []string{"[1] error GEM-SIG-003 request.contents[1].parts[1].thoughtSignature"},
		},
		{
			name: "signature moved to the second parallel call", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1), responseBody(callPart("ls", a), callPart("cat", "")),
				requestBody(q1, modelTurn(callPart("ls", ""), callPart("cat", a)), resultsTurn("ls", "cat")), responseBody(textPart("Done.", "")),
			},
			want: []string{
				"[1] error GEM-SIG-002 request.contents[1].parts[0]",
				"[1] error GEM-SIG-003 request.contents[1].parts[1].thoughtSignature",
			},
		},
		{
			// Every step of the current turn is validated, not only the last.
			name: "earlier step of the current turn dropped", model: "gemini-3-flash-preview",
			bodies: []string{
				requestBody(q1), responseBody(callPart("ls", a)),
				requestBody(q1, modelTurn(callPart("ls", a)), resultsTurn("ls")), responseBody(callPart("cat", b)),
				requestBody(q1, modelTurn(callPart("ls", "")), resultsTurn("ls"), modelTurn(callPart("cat", b)), resultsTurn("cat")), responseBody(textPart("Done.", "")),
			},
			want: []string{"[2] error GEM-SIG-002 request.contents[1].parts[0]"},
		},
		{
			// Older turns are not validated: the same drop only degrades,
			// and is reported once, not again in every later request.
			name: "older turn dropped", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1), responseBody(callPart("ls", a)),
				requestBody(q1, modelTurn(callPart("ls", a)), resultsTurn("ls")), responseBody(textPart("Two files.", "")),
				requestBody(q1, modelTurn(callPart("ls", "")), resultsTurn("ls"), modelTurn(textPart("Two files.", "")), q2), responseBody(callPart("ls", c)),
				requestBody(q1, modelTurn(callPart("ls", "")), resultsTurn("ls"), modelTurn(textPart("Two files.", "")), q2, modelTurn(callPart("ls", c)), resultsTurn("ls")), responseBody(textPart("None.", "")),
			},
			want: []string{"[2] warning GEM-SIG-002 request.contents[1].parts[0]"},
		},
		{
			// A user text after function responses opens a new turn (§4.6).
			name: "ephemeral user text moves the turn boundary", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1), responseBody(callPart("ls", a)),
				requestBody(q1, modelTurn(callPart("ls", "")), resultsTurn("ls"), user("(note: be brief)")), responseBody(textPart("Two.", "")),
			},
			want: []string{"[1] warning GEM-SIG-002 request.contents[1].parts[0]"},
		},
		{
			name: "older model does not validate", model: "gemini-2.5-flash",
			bodies: []string{
				requestBody(q1), responseBody(callPart("ls", a)),
				requestBody(q1, modelTurn(callPart("ls", "")), resultsTurn("ls")), responseBody(textPart("Two files.", "")),
			},
			want: []string{"[1] warning GEM-SIG-002 request.contents[1].parts[0]"},
		},
		{
			name: "client-authored call on an older model", model: "gemini-2.5-pro",
			bodies: []string{
				requestBody(q1, modelTurn(callPart("ls", "")), resultsTurn("ls")), responseBody(textPart("Two files.", "")),
			},
		},
		{
			name: "dummy in raw form on an imported call", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1, modelTurn(callPart("ls", "context_engineering_is_the_way_to_go")), resultsTurn("ls")), responseBody(textPart("Two files.", "")),
			},
		},
		{
			name: "signature that is not base64", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1), responseBody(callPart("ls", a)),
				requestBody(q1, modelTurn(callPart("ls", "sig a!")), resultsTurn("ls")), responseBody(textPart("Done.", "")),
			},
			want: []string{"[1] error GEM-SIG-003 request.contents[1].parts[0].thoughtSignature"},
		},
		{
			// A signature from another conversation, on a call the response
			// produced unsigned.
			name: "foreign signature on an unsigned call", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1), responseBody(callPart("ls", a), callPart("cat", "")),
				requestBody(q1, modelTurn(callPart("ls", a), callPart("cat", c)), resultsTurn("ls", "cat")), responseBody(textPart("Done.", "")),
			},
			want: []string{"[1] error GEM-SIG-003 request.contents[1].parts[1].thoughtSignature"},
		},
		{
			name: "text parts merged around a signed text part", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1), responseBody(textPart("Two ", ""), textPart("files.", text)),
				requestBody(q1, modelTurn(textPart("Two files.", text)), q2), responseBody(textPart("None.", "")),
			},
			want: []string{"[1] warning GEM-SIG-003 request.contents[1].parts[0].thoughtSignature"},
		},
		{
			// An older step is tied to the response by the history before
			// it (the call carries no signature to find it by), also when a
			// request of another conversation came in between.
			name: "older step dropped, another conversation in between", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1), responseBody(callPart("ls", a)),
				requestBody(q2), responseBody(textPart("None.", "")),
				requestBody(q1, modelTurn(callPart("ls", "")), resultsTurn("ls"), modelTurn(textPart("Two files.", "")), q2), responseBody(textPart("Done.", "")),
			},
			want: []string{"[2] warning GEM-SIG-002 request.contents[1].parts[0]"},
		},
		{
			// A client that rewrote the answer sent something else: its
			// missing signatures are not judged as dropped echoes.
			name: "rewritten answer is not an echo", model: "gemini-3-pro-preview",
			bodies: []string{
				requestBody(q1), responseBody(textPart("Two files.", text)),
				requestBody(q1, modelTurn(textPart("There are two files in the repo.", "")), q2), responseBody(textPart("None.", "")),
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := trafficOf(t, tc.model, tc.bodies...)
			got := findings(tr)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
			judgedLiveAsWhole(t, tr, got)
		})
	}
}

// judgedLiveAsWhole judges every request of tr live, as the recorder
// judges each on arrival (only its findings wanted, check.Traffic.Latest),
// and compares what it gets with whole, the findings of the whole traffic
// (as findings renders them).
func judgedLiveAsWhole(t *testing.T, tr *check.Traffic, whole []string) {
	t.Helper()
	for i := range tr.Exchanges {
		prefix := fmt.Sprintf("[%d] ", i)
		var want []string
		for _, s := range whole {
			if strings.HasPrefix(s, prefix) {
				want = append(want, s)
			}
		}
		var live []string
		for _, s := range findings(&check.Traffic{Exchanges: tr.Exchanges[:i+1], Latest: true}) {
			if strings.HasPrefix(s, prefix) {
				live = append(live, s)
			}
		}
		if d := cmp.Diff(want, live); d != "" {
			t.Errorf("request %d judged live (-whole +live):\n%s", i, d)
		}
	}
}

func TestGemTurnRules(t *testing.T) {
	q := user("List and read.")
	cases := []struct {
		name     string
		contents []string
		want     []string
	}{
		{"two calls, two responses", []string{q, modelTurn(callPart("ls", ""), callPart("cat", "")), resultsTurn("cat", "ls")}, nil},
		{"call turn at the tail is not judged", []string{q, modelTurn(callPart("ls", ""))}, nil},
		{"one response for two calls", []string{q, modelTurn(callPart("ls", ""), callPart("cat", "")), resultsTurn("ls")},
			[]string{"[0] error GEM-TOOL-002 request.contents[2]"}},
		// Gemini reads consecutive user contents as one turn: crewAI sends one
		// content per response of a parallel call and the API answers 200.
		{"responses split over two contents", []string{q, modelTurn(callPart("ls", ""), callPart("cat", "")), resultsTurn("ls"), resultsTurn("cat")}, nil},
		{"responses split, one missing", []string{q, modelTurn(callPart("ls", ""), callPart("cat", ""), callPart("pwd", "")), resultsTurn("ls"), resultsTurn("cat")},
			[]string{"[0] error GEM-TOOL-002 request.contents[2]"}},
		{"user text instead of a response", []string{q, modelTurn(callPart("ls", "")), user("stop")},
			[]string{"[0] error GEM-TOOL-002 request.contents[2]"}},
		{"response named after another call", []string{q, modelTurn(callPart("ls", "")), resultsTurn("cat")},
			[]string{"[0] info GEM-TOOL-002 request.contents[2].parts[0].functionResponse.name"}},
		{"history opens with a response", []string{resultsTurn("ls"), q},
			[]string{"[0] error GEM-TOOL-001 request.contents[0]"}},
		{"response after a model text", []string{q, modelTurn(textPart("Sure.", "")), resultsTurn("ls")},
			[]string{"[0] error GEM-TOOL-001 request.contents[2]"}},
		{"call in the second content of a model turn", []string{q, modelTurn(textPart("Looking.", "")), modelTurn(callPart("ls", "")), resultsTurn("ls")}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := trafficOf(t, "gemini-2.5-flash", requestBody(tc.contents...), responseBody(textPart("ok", "")))
			if d := cmp.Diff(tc.want, findings(tr)); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}

// growingConversation builds `threads` Gemini 3 conversations growing to
// `turns` steps each: every response is a signed functionCall (and a
// trailing signature-only part every other step), and every next request
// echoes the whole history in URL-safe base64 with the functionResponse
// appended — the shape that makes a naive cross-turn checker quadratic.
func growingConversation(tb testing.TB, threads, turns int) *check.Traffic {
	tr := &check.Traffic{}
	for th := 0; th < threads; th++ {
		contents := []string{user(fmt.Sprintf("conversation %d: walk the tree", th))}
		for turn := 0; turn < turns; turn++ {
			raw := []byte(fmt.Sprintf("thread %d step %d %s", th, turn, strings.Repeat("\xfb\xff", 150)))
			std, url := base64.StdEncoding.EncodeToString(raw), base64.URLEncoding.EncodeToString(raw)
			name := fmt.Sprintf("step_%d", turn)
			parts := []string{callPart(name, std)}
			echo := []string{callPart(name, url)}
			if turn%2 == 1 {
				tail := base64.StdEncoding.EncodeToString(append(raw, '!'))
				parts = append(parts, textPart("", tail))
				echo = append(echo, textPart("", tail))
			}
			req := requestBody(contents...)
			ex := providers.Decode(len(tr.Exchanges), providers.Call{
				Method: "POST", URL: "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent",
				RequestBody: []byte(req), Status: 200, ResponseBody: []byte(responseBody(parts...)),
			})
			tr.Exchanges = append(tr.Exchanges, ex)
			contents = append(contents, modelTurn(echo...), resultsTurn(name))
		}
	}
	return tr
}

// TestGemGrowingConversationIsClean keeps the benchmark honest: the
// generated traffic breaks no Gemini rule.
func TestGemGrowingConversationIsClean(t *testing.T) {
	if got := findings(growingConversation(t, 2, 8)); len(got) > 0 {
		t.Errorf("findings on clean traffic:\n%s", strings.Join(got, "\n"))
	}
}

// BenchmarkJudgeGeminiGrowingConversation: the whole catalogue over 1,000
// Gemini interactions (5 conversations growing to 200 steps); the bar is
// under 1 s per op on one core (go test -bench JudgeGemini -cpu 1).
func BenchmarkJudgeGeminiGrowingConversation(b *testing.B) {
	tr := growingConversation(b, 5, 200)
	checks := checks.All()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		check.Judge(&check.Traffic{Exchanges: tr.Exchanges}, checks)
	}
}

// TestGemRealTraffic pins what the family says about the real Gemini
// recordings: a URL-safe echo is a re-encoding note, not a signature
// error; a dummy signature on calls imported from another model and a
// trailing empty-text signature part are legal; cagent's responses named
// after the call id are an info finding.
func TestGemRealTraffic(t *testing.T) {
	checks, _ := checks.Select([]string{"GEM-*", "XP-RAW-*"}, nil)
	for src, want := range map[string][]string{
		srcGemSigStream:  {"[1] info XP-RAW-001 request.contents[1].parts[0].thoughtSignature"},
		srcGemRetry:      {"[1] info XP-RAW-001 request.contents[1].parts[0].thoughtSignature", "[2] info XP-RAW-001 request.contents[3].parts[0].thoughtSignature"},
		srcGemOtherModel: nil,
		srcGemCagentTool: {"[1] info GEM-TOOL-002 request.contents[4].parts[0].functionResponse.name"},
		srcGemTitle:      nil,
		srcGemLangchain:  nil,
		"vercel__ai/packages__google__src____fixtures____google-reasoning-gemini3.chunks.txt": nil,
	} {
		tr, err := report.LoadTraffic(filepath.Join(corpus.Dir(t), filepath.FromSlash(src)), "")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range check.Judge(tr, checks) {
			got = append(got, fmt.Sprintf("[%d] %s %s %s", f.Interaction, f.Severity, f.Check, f.Location))
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", src, d)
		}
	}
}

// TestGemLinear: five times the steps may not cost much more than the
// quadratic growth of the traffic itself (each request carries the whole
// history), so the family is linear in the size of what it reads. The cost
// is counted in bytes allocated, not wall-clock time, which a loaded
// machine (a -race run beside other packages) makes meaningless.
func TestGemLinear(t *testing.T) {
	checks, _ := checks.Select([]string{"GEM-*", "XP-RAW-*"}, nil)
	measure := func(tr *check.Traffic) uint64 { return checktest.AllocatedJudging(tr, checks) }
	small, large := growingConversation(t, 1, 40), growingConversation(t, 1, 200)
	if s, l := measure(small), measure(large); l > 25*3*s {
		t.Errorf("40 steps allocated %d bytes, 200 allocated %d: worse than linear in the traffic (25×)", s, l)
	} else {
		t.Logf("40 steps: %d bytes, 200 steps: %d bytes (%.1f×)", s, l, float64(l)/float64(s))
	}
}

// FuzzGeminiChecks feeds the family two calls whose bodies are anything
// that decodes: no check may panic, whatever shape the history has, and
// the second request judged live gets what the whole judgement gives it.
func FuzzGeminiChecks(f *testing.F) {
	for _, path := range corpus.Files(f) {
		c, err := cassette.Load(path)
		if err != nil {
			continue
		}
		for i := 1; i < len(c.Interactions); i++ {
			in := c.Interactions
			if strings.Contains(in[i].Request.URL, "generateContent") {
				if corpus.FuzzSeed(in[i-1].Request.Body, in[i-1].Response.Body, in[i].Request.Body, in[i].Response.Body) {
					f.Add(in[i-1].Request.Body, in[i-1].Response.Body, in[i].Request.Body, in[i].Response.Body)
				}
			}
		}
	}
	a := sigOf("sig-a")
	f.Add([]byte(requestBody(user("q"))), []byte(responseBody(callPart("f", a), textPart("", a), textPart("t", a))),
		[]byte(requestBody(resultsTurn("f"), modelTurn(textPart("t", a)), modelTurn(callPart("f", a), `{"functionCall":{"name":"g","thoughtSignature":"x"}}`), resultsTurn())),
		[]byte(responseBody()))
	checks, _ := checks.Select([]string{"GEM-*", "XP-RAW-*"}, nil)
	f.Fuzz(func(t *testing.T, req0, resp0, req1, resp1 []byte) {
		var exs []traffic.Exchange
		for i, body := range [][2][]byte{{req0, resp0}, {req1, resp1}} {
			exs = append(exs, providers.Decode(i, providers.Call{Method: "POST", Wire: traffic.WireGemini,
				URL:         "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent?key=REDACTED",
				RequestBody: body[0], Status: 200, ResponseBody: body[1]}))
		}
		whole := check.Judge(&check.Traffic{Exchanges: exs}, checks)
		for _, fd := range whole {
			if fd.Check == "" || fd.Message == "" || fd.Location == "" || fd.Interaction < 0 || fd.Interaction > 1 {
				t.Fatalf("malformed finding: %+v", fd)
			}
		}
		checktest.LastJudgedLiveAsWhole(t, exs, checks, whole)
	})
}
