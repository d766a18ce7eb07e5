package checks_test

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/internal/origin"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// Mutation testing on real traffic: one fault at a time is planted into the
// requests of every corpus recording — a flipped byte in an echoed opaque
// payload, a dropped thinking or reasoning item, a dropped or re-ided tool
// result, text before tool results, a dropped functionResponse — wherever
// the recording itself can reveal it (the payload or call was produced by
// an earlier response of the same recording, on an endpoint the rule's
// evidence covers, in a request the provider accepted). The family of checks
// that owns the rule must then report an error on that interaction.
//
//	go test ./conformance/checks -run TestMutantsOnRealTraffic -v   (make mutants)
//
// prints the catch rate per family and every miss.
func TestMutantsOnRealTraffic(t *testing.T) {
	type tally struct{ planted, caught int }
	byFamily := map[string]*tally{}
	bySet := map[string]*tally{} // the rate holds on every corpus set, not only over both
	var misses []string
	for _, set := range []string{corpus.Dev, corpus.Wave2} {
		for _, path := range corpus.SetFiles(t, set) {
			c, err := cassette.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			exs := providers.DecodeCassette(c, "")
			tr := &check.Traffic{Exchanges: exs}
			x := origin.Of(tr)
			for i := range exs {
				ex := &exs[i]
				if ex.Request == nil || !ex.Accepted() {
					continue
				}
				for _, m := range mutantsOf(x, exs, i) {
					body, err := m.apply(c.Interactions[i].Request.Body)
					if err != nil {
						t.Fatalf("%s #%d %s: %v", corpus.Name(t, path), i, m.name, err)
					}
					caught, got := judgeMutant(c, exs, i, body, m.families)
					tl := byFamily[m.family()]
					if tl == nil {
						tl = &tally{}
						byFamily[m.family()] = tl
					}
					st := bySet[set]
					if st == nil {
						st = &tally{}
						bySet[set] = st
					}
					tl.planted++
					st.planted++
					if caught {
						tl.caught++
						st.caught++
						continue
					}
					misses = append(misses, fmt.Sprintf("%s/%s #%d %s: %s", set, corpus.Name(t, path), i, m.name, got))
				}
			}
		}
	}
	var fams []string
	planted, caught := 0, 0
	for f, tl := range byFamily {
		fams = append(fams, f)
		planted += tl.planted
		caught += tl.caught
	}
	sort.Strings(fams)
	for _, f := range fams {
		tl := byFamily[f]
		t.Logf("%-10s %3d planted, %3d caught (%.1f%%)", f, tl.planted, tl.caught, 100*float64(tl.caught)/float64(tl.planted))
	}
	for _, set := range []string{corpus.Dev, corpus.Wave2} {
		st := bySet[set]
		if st == nil {
			t.Logf("set %-6s no mutant planted", set)
			continue
		}
		rate := float64(st.caught) / float64(st.planted)
		t.Logf("set %-6s %3d planted, %3d caught (%.1f%%)", set, st.planted, st.caught, 100*rate)
		if rate < 0.97 {
			t.Errorf("set %s: caught %d of %d mutants (%.1f%%), want at least 97%%", set, st.caught, st.planted, 100*rate)
		}
	}
	for _, m := range misses {
		t.Logf("MISS %s", m)
	}
	if planted < 50 {
		t.Errorf("only %d mutants planted: the corpus should reveal more", planted)
	}
	if rate := float64(caught) / float64(planted); rate < 0.97 {
		t.Errorf("caught %d of %d mutants (%.1f%%), want at least 97%%", caught, planted, 100*rate)
	}
}

// mutant is one fault planted into one request body.
type mutant struct {
	name     string
	families []string // the check families one of which must report it
	apply    func(body []byte) ([]byte, error)
}

func (m mutant) family() string { return m.families[0] }

// judgeMutant decodes the mutated request i in place of the original and
// reports whether one of the families raised an error on interaction i,
// with what was raised there when none did.
func judgeMutant(c *cassette.Cassette, exs []traffic.Exchange, i int, body []byte, families []string) (bool, string) {
	in := c.Interactions[i]
	mutated := providers.Decode(i, providers.Call{
		Method: in.Request.Method, URL: in.Request.URL, RequestHeader: in.Request.Header, RequestBody: body,
		Status: in.Response.Status, ResponseHeader: in.Response.Header, ResponseBody: in.Response.Body, Duration: in.Response.Duration,
	})
	all := append([]traffic.Exchange(nil), exs...)
	all[i] = mutated
	var raised []string
	for _, f := range check.Judge(&check.Traffic{Exchanges: all}, checks.All()) {
		if f.Interaction != i {
			continue
		}
		raised = append(raised, string(f.Severity)+" "+f.Check)
		for _, fam := range families {
			if f.Severity == check.SeverityError && strings.HasPrefix(f.Check, fam+"-") {
				return true, ""
			}
		}
	}
	if len(raised) == 0 {
		return false, "nothing raised"
	}
	return false, strings.Join(raised, ", ")
}

// mutantsOf lists the faults request i of exs can reveal.
func mutantsOf(x *origin.Index, exs []traffic.Exchange, i int) []mutant {
	ex := &exs[i]
	msgs := ex.Request.Messages
	var out []mutant
	// produced reports whether an earlier response of the recording carried
	// the opaque payload, so a changed byte is something the traffic shows.
	produced := func(raw []byte) bool {
		_, ok := x.First(ex.Wire, origin.PayloadValue, origin.Value(raw), i)
		return len(raw) > 0 && ok
	}
	called := func(id string) bool {
		_, ok := x.First(ex.Wire, origin.Call, id, i)
		return id != "" && ok
	}
	switch ex.Wire {
	case traffic.WireAnthropic:
		if !holds("ANT-THINK-001", ex) {
			break
		}
		for k := range msgs {
			m := &msgs[k]
			for j := range m.Blocks {
				b := &m.Blocks[j]
				switch {
				case m.Role == traffic.RoleAssistant && b.Type == traffic.BlockThinking && produced(b.Signature):
					out = append(out, flip("flip thinking signature at "+b.Path, []string{"ANT-THINK"}, b.Path, "signature"))
				case m.Role == traffic.RoleAssistant && b.Type == traffic.BlockRedacted && produced(b.Data):
					out = append(out, flip("flip redacted data at "+b.Path, []string{"ANT-THINK"}, b.Path, "data"))
				case b.Type == traffic.BlockToolResult && k > 0 && called(b.ToolCallID):
					out = append(out,
						drop("drop tool_result at "+b.Path, []string{"ANT-TOOL"}, b.Path),
						set("re-id tool_result at "+b.Path, []string{"ANT-TOOL"}, b.Path+".tool_use_id", `"toolu_01MutantMutantMutant"`),
						prepend("text before tool_result at "+m.Path, []string{"ANT-TOOL"}, m.Path+".content", `{"type":"text","text":"(a note)"}`))
				}
			}
		}
		// The assistant message of the current tool loop: its thinking dropped.
		if n := len(msgs); n >= 2 && msgs[n-2].Role == traffic.RoleAssistant && antLoopContinues(&msgs[n-1]) {
			m := &msgs[n-2]
			if len(m.Blocks) > 0 && m.Blocks[0].Type == traffic.BlockThinking && produced(m.Blocks[0].Signature) && !m.ContentString {
				out = append(out, drop("drop thinking at "+m.Blocks[0].Path, []string{"ANT-THINK"}, m.Blocks[0].Path))
			}
		}
	case traffic.WireOpenAI:
		if !holds("OAI-TOOL-001", ex) {
			break
		}
		for k := range msgs {
			m := &msgs[k]
			if m.Role != traffic.RoleTool || len(m.Blocks) != 1 || !called(m.Blocks[0].ToolCallID) {
				continue
			}
			out = append(out,
				drop("drop tool message at "+m.Path, []string{"OAI-TOOL"}, m.Path),
				set("re-id tool message at "+m.Path, []string{"OAI-TOOL"}, m.Path+".tool_call_id", `"call_MutantMutantMutant"`))
		}
	case traffic.WireResponses:
		if !holds("OAI-TOOL-010", ex) {
			break
		}
		for k := range msgs {
			m := &msgs[k]
			if len(m.Blocks) != 1 {
				continue
			}
			b := &m.Blocks[0]
			switch {
			case m.WireType == "reasoning" && produced(b.EncryptedContent):
				out = append(out, flip("flip encrypted_content at "+m.Path, []string{"OAI-RSN"}, m.Path, "encrypted_content"))
				if k+1 < len(msgs) && msgs[k+1].WireType == "function_call" && strings.HasPrefix(msgs[k+1].Blocks[0].ItemID, "fc_") {
					out = append(out, drop("drop reasoning at "+m.Path, []string{"OAI-RSN"}, m.Path))
				}
			case m.WireType == "function_call_output" && called(b.ToolCallID):
				out = append(out,
					drop("drop function_call_output at "+m.Path, []string{"OAI-TOOL"}, m.Path),
					set("re-id function_call_output at "+m.Path, []string{"OAI-TOOL"}, m.Path+".call_id", `"call_MutantMutantMutant"`))
			}
		}
	case traffic.WireGemini:
		if !holds("GEM-TOOL-002", ex) {
			break
		}
		turn := gemTurnStart(msgs)
		for k := range msgs {
			m := &msgs[k]
			for j := range m.Blocks {
				b := &m.Blocks[j]
				switch {
				case m.Role == traffic.RoleAssistant && b.Type == traffic.BlockToolCall && k > turn && gemEnforces(ex.Request.Model) && produced(b.Signature):
					out = append(out, flip("flip thoughtSignature at "+b.Path, []string{"GEM-SIG"}, b.Path, "thoughtSignature", "thought_signature"))
				case b.Type == traffic.BlockToolResult && k > 0 && msgs[k-1].Role == traffic.RoleAssistant:
					out = append(out, drop("drop functionResponse at "+b.Path, []string{"GEM-TOOL"}, b.Path))
				}
			}
		}
	}
	return out
}

// holds reports whether the rule behind id is an error where ex went.
func holds(id string, ex *traffic.Exchange) bool {
	return checks.Lookup(id).Evidence.Holds(ex.Dialect)
}

// antLoopContinues reports whether a user message answers tool calls.
func antLoopContinues(m *traffic.Message) bool {
	return m.Role == traffic.RoleUser && len(m.Blocks) > 0 && m.Blocks[0].Type == traffic.BlockToolResult
}

// gemTurnStart is the last user content with ordinary content: the current
// turn begins after it.
func gemTurnStart(msgs []traffic.Message) int {
	start := -1
	for k := range msgs {
		m := &msgs[k]
		if m.Role == traffic.RoleAssistant {
			continue
		}
		for _, b := range m.Blocks {
			if b.Type != traffic.BlockToolResult {
				start = k
				break
			}
		}
	}
	return start
}

// gemEnforces: Gemini 3 validates signatures; 2.5 does not
// (docs/provider-rules.md G2).
func gemEnforces(model string) bool { return strings.Contains(model, "gemini-3") }

var index = regexp.MustCompile(`\[(\d+)\]`)

// jsonPath turns a model path ("messages[1].content[0]") into the
// gjson/sjson form ("messages.1.content.0").
func jsonPath(p string) string { return index.ReplaceAllString(p, ".$1") }

// flip changes one character in the middle of the string at path.field,
// the field under the first of its names the body uses (Gemini's Python
// SDK writes snake_case for Vertex).
func flip(name string, families []string, path string, fields ...string) mutant {
	return mutant{name: name, families: families, apply: func(body []byte) ([]byte, error) {
		p := jsonPath(path) + "." + fields[0]
		for _, f := range fields {
			if gjson.GetBytes(body, jsonPath(path)+"."+f).Exists() {
				p = jsonPath(path) + "." + f
				break
			}
		}
		v := gjson.GetBytes(body, p)
		if v.Type != gjson.String || len(v.Str) < 2 {
			return nil, fmt.Errorf("%s is not a string", p)
		}
		s := []byte(v.Str)
		k := len(s) / 2
		if s[k] == 'A' {
			s[k] = 'B'
		} else {
			s[k] = 'A'
		}
		return sjson.SetBytes(body, p, string(s))
	}}
}

// drop deletes the value at path.
func drop(name string, families []string, path string) mutant {
	p := jsonPath(path)
	return mutant{name: name, families: families, apply: func(body []byte) ([]byte, error) {
		if !gjson.GetBytes(body, p).Exists() {
			return nil, fmt.Errorf("nothing at %s", p)
		}
		return sjson.DeleteBytes(body, p)
	}}
}

// set replaces the value at path with raw JSON.
func set(name string, families []string, path, raw string) mutant {
	p := jsonPath(path)
	return mutant{name: name, families: families, apply: func(body []byte) ([]byte, error) {
		if !gjson.GetBytes(body, p).Exists() {
			return nil, fmt.Errorf("nothing at %s", p)
		}
		return sjson.SetRawBytes(body, p, []byte(raw))
	}}
}

// prepend puts raw JSON first in the array at path.
func prepend(name string, families []string, path string, raw string) mutant {
	p := jsonPath(path)
	return mutant{name: name, families: families, apply: func(body []byte) ([]byte, error) {
		arr := gjson.GetBytes(body, p)
		if !arr.IsArray() {
			return nil, fmt.Errorf("%s is not an array", p)
		}
		items := []string{raw}
		for _, it := range arr.Array() {
			items = append(items, it.Raw)
		}
		return sjson.SetRawBytes(body, p, []byte("["+strings.Join(items, ",")+"]"))
	}}
}
