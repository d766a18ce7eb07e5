package history_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/traffic"
)

// TestHist005 walks HIST-005 over a schema retry on each wire: the feedback
// may sit in the last message of the request that retries, and nowhere
// else. want lists "interaction location".
func TestHist005(t *testing.T) {
	const fb = "Reply with a JSON object matching the schema."
	prompt, prose, answer, next := "List the two largest files as JSON.", "src/parser.go and src/lexer.go.", `{"files":["src/parser.go","src/lexer.go"]}`, "Thanks."

	chat := func(msgs ...string) call {
		return call{wire: traffic.WireOpenAI, req: `{"model":"gpt-4.1","messages":[` + strings.Join(msgs, ",") + `]}`}
	}
	cu := func(s string) string { return fmt.Sprintf(`{"role":"user","content":%q}`, s) }
	ca := func(s string) string { return fmt.Sprintf(`{"role":"assistant","content":%q}`, s) }
	rsp := func(items ...string) call {
		return call{wire: traffic.WireResponses, req: `{"model":"gpt-5","store":false,"input":[` + strings.Join(items, ",") + `]}`}
	}
	ru := func(s string) string {
		return fmt.Sprintf(`{"role":"user","content":[{"type":"input_text","text":%q}]}`, s)
	}
	ra := func(s string) string {
		return fmt.Sprintf(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":%q}]}`, s)
	}
	gem := func(contents ...string) call {
		return call{wire: traffic.WireGemini, req: `{"contents":[` + strings.Join(contents, ",") + `]}`}
	}
	gu := func(s string) string { return fmt.Sprintf(`{"role":"user","parts":[{"text":%q}]}`, s) }
	gm := func(s string) string { return fmt.Sprintf(`{"role":"model","parts":[{"text":%q}]}`, s) }

	cases := []struct {
		name  string
		calls []call
		want  []string
	}{
		{"anthropic: sent once, then dropped", []call{
			antCall("s", user(prompt)), antCall("s", user(prompt), asst(text(prose)), user(fb)), antCall("s", user(prompt), asst(text(answer)), user(next)),
		}, nil},
		{"anthropic: kept in the history", []call{
			antCall("s", user(prompt)), antCall("s", user(prompt), asst(text(prose)), user(fb)),
			antCall("s", user(prompt), asst(text(prose)), user(fb), asst(text(answer)), user(next)),
			antCall("s", user(prompt), asst(text(prose)), user(fb), asst(text(answer)), user(next), asst(text("Welcome.")), user("Bye.")),
		}, []string{"2 request.messages[2].content[0] (1 later)"}},
		{"anthropic: inside a longer block, after the tool results", []call{
			antCall("s", user(prompt), asst(toolUse("toolu_01", "ls")), userBlocks(toolResult("toolu_01", "a b"), text("<retry>"+fb+"</retry>"))),
			antCall("s", user(prompt), asst(toolUse("toolu_01", "ls")), userBlocks(toolResult("toolu_01", "a b"), text("<retry>"+fb+"</retry>")), asst(text(answer)), user(next)),
		}, []string{"1 request.messages[2].content[1]"}},
		{"anthropic: quoted by the model or a tool is not the harness's", []call{
			antCall("s", user(prompt), asst(toolUse("toolu_01", "ls")), userBlocks(toolResult("toolu_01", fb)), asst(text("You asked: "+fb)), user(next)),
		}, nil},
		{"openai: kept", []call{
			chat(cu(prompt), ca(prose), cu(fb)), chat(cu(prompt), ca(prose), cu(fb), ca(answer), cu(next)),
		}, []string{"1 request.messages[2].content"}},
		{"openai: dropped", []call{
			chat(cu(prompt), ca(prose), cu(fb)), chat(cu(prompt), ca(answer), cu(next)),
		}, nil},
		{"responses: kept", []call{
			rsp(ru(prompt), ra(prose), ru(fb)), rsp(ru(prompt), ra(prose), ru(fb), ra(answer), ru(next)),
		}, []string{"1 request.input[2].content[0]"}},
		{"gemini: kept", []call{
			gem(gu(prompt), gm(prose), gu(fb)), gem(gu(prompt), gm(prose), gu(fb), gm(answer), gu(next)),
		}, []string{"1 request.contents[2].parts[0]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := trafficOf(t, c.calls...)
			tr.Ephemeral = []string{"", fb} // an empty declaration matches nothing
			var got []string
			for _, f := range check.Judge(tr, []*check.Check{checks.Lookup("HIST-005")}) {
				if f.Severity != check.SeverityWarning || !strings.Contains(f.Message, `ephemeral content "Reply with a JSON object`) {
					t.Errorf("finding %s", f)
				}
				s := fmt.Sprintf("%d %s", f.Interaction, f.Location)
				if _, n, ok := strings.Cut(f.Message, "; "); ok {
					s += " (" + strings.Fields(n)[0] + " later)"
				}
				got = append(got, s)
				t.Log(f)
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}

// With nothing declared HIST-005 has nothing to judge: it does not apply,
// so a report does not list it as checked.
func TestHist005AppliesOnlyToDeclarations(t *testing.T) {
	tr := trafficOf(t, antCall("s", user("a"), asst(text("b")), user("c")))
	c := checks.Lookup("HIST-005")
	if got := check.Applicable(tr, []*check.Check{c}); len(got) != 0 {
		t.Errorf("applies without declarations: %v", got)
	}
	tr = trafficOf(t, antCall("s", user("a"), asst(text("b")), user("c")))
	tr.Ephemeral = []string{"a"}
	if got := check.Applicable(tr, []*check.Check{c}); len(got) != 1 {
		t.Errorf("does not apply with a declaration")
	}
	var hist []check.Finding
	for _, f := range checks.Judge(tr) { // nil: the whole catalogue
		if f.Check == "HIST-005" {
			hist = append(hist, f)
		}
	}
	if len(hist) != 1 || hist[0].Location != "request.messages[0].content[0]" || !strings.Contains(hist[0].Message, "sits in message 1 of 3") {
		t.Errorf("HIST-005 found %v", hist)
	}
}
