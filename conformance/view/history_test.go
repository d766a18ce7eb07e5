package view_test

import (
	"fmt"
	"html"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/cassette"
)

// The recording behind issue 45: pydantic-ai's edited history, where the
// second request sends "The meaning of life is 42" in place of the
// model's answer and the third turns the reasoning item into a text.
const editedHistory = "../../fixtures/checks/OAI-RSN-001/fail-real-edited-history-rejected.i1.yaml"

// callSection returns the HTML of one call of the page, unescaped.
func callSection(t *testing.T, page, anchor string) string {
	t.Helper()
	start := strings.Index(page, `<div class="call" id="`+anchor+`">`)
	if start < 0 {
		t.Fatalf("the page has no call %s", anchor)
	}
	rest := page[start+1:]
	end := strings.Index(rest, `<div class="call" id=`)
	if e := strings.Index(rest, "</section>"); end < 0 || e >= 0 && e < end {
		end = e
	}
	return html.UnescapeString(page[start : start+1+end])
}

// fileSection returns one file's section of the page.
func fileSection(t *testing.T, page, anchor string) string {
	t.Helper()
	start := strings.Index(page, `<section class="file" id="`+anchor+`">`)
	if start < 0 {
		t.Fatalf("the page has no file %s", anchor)
	}
	end := strings.Index(page[start:], "</section>")
	return page[start : start+end]
}

// A resent message that differs from what the model produced is shown,
// marked changed, with a diff from the answer it replaces; what repeats
// unchanged is folded.
func TestEditedHistoryShown(t *testing.T) {
	page, _ := render(t, []string{editedHistory})
	c1 := callSection(t, page, "f0-c1")
	for _, want := range []string{
		`<div class="msg role-assistant changed">`,
		"differs from what <a href=\"#f0-c0\">call 0's response</a> held",
		"- A single, final answer doesn’t exist—it depends on perspective.",
		"+ The meaning of life is 42",
		"… 1 earlier message sent again unchanged",
		// the reasoning item, resent as it was, shown for the finding on it
		`<span class="tag">sent again unchanged</span>`,
		"Anything to add?",
	} {
		if !strings.Contains(c1, want) {
			t.Errorf("call 1 lacks %q:\n%s", want, c1)
		}
	}
	if changed := strings.Index(c1, `tag changed">changed</span>`); changed < 0 || !strings.Contains(c1[changed:], "The meaning of life is 42</div>") {
		t.Errorf("the edited answer is not shown as a changed message")
	}
	c2 := callSection(t, page, "f0-c2")
	for _, want := range []string{
		"differs from what <a href=\"#f0-c1\">call 1's request</a> held",
		"- [reasoning · item rs_68c42de022c881948db7ed1cc2529f2e0202c9ad459e0d23 · encrypted_content 1.4 KiB sha256:4a021966]",
		"+ <think>",
	} {
		if !strings.Contains(c2, want) {
			t.Errorf("call 2 lacks %q:\n%s", want, c2)
		}
	}
	if strings.Contains(page, "as above") {
		t.Error("the page still skips earlier messages by count")
	}
}

// In a headless browser, the edited answer is a changed message with its
// diff open, inside the call that sent it.
func TestEditedHistoryInBrowser(t *testing.T) {
	page, _ := render(t, []string{editedHistory})
	dom := html.UnescapeString(openBrowser(t, page).dom(t))
	c1 := callSection(t, dom, "f0-c1")
	for _, want := range []string{
		`<div class="msg role-assistant changed">`,
		`<span class="tag changed">changed</span>`,
		`<details class="diff" open="">`,
		"+ The meaning of life is 42",
		"- If you want, tell me what matters to you",
	} {
		if !strings.Contains(c1, want) {
			t.Errorf("the browser's call 1 lacks %q", want)
		}
	}
	if strings.Contains(dom, "as above") {
		t.Error("the browser shows earlier messages skipped by count")
	}
}

// A handbuilt conversation with every kind of step: appended to, an answer
// edited, a message dropped, and a new conversation on the same cassette.
func TestHistoryComparedByContent(t *testing.T) {
	u := func(s string) string { return fmt.Sprintf(`{"role":"user","content":%q}`, s) }
	a := func(s string) string { return fmt.Sprintf(`{"role":"assistant","content":%q}`, s) }
	calls := []struct {
		history []string
		answer  string
	}{
		{[]string{u("q1")}, "a1"},
		{[]string{u("q1"), a("a1"), u("q2")}, "a2"},                            // appended
		{[]string{u("q1"), a("a1 edited"), u("q2"), a("a2"), u("q3")}, "a3"},   // a1 changed
		{[]string{u("q1"), u("q2"), a("a2"), u("q3"), a("a3"), u("q4")}, "a4"}, // a1 dropped
		{[]string{u("another question")}, "a5"},                                // a new conversation
	}
	c := &cassette.Cassette{}
	for i, call := range calls {
		c.Interactions = append(c.Interactions, &cassette.Interaction{
			Request: cassette.Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages", Header: http.Header{},
				Body: []byte(`{"model":"claude-x","max_tokens":10,"messages":[` + strings.Join(call.history, ",") + `]}`)},
			Response: cassette.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}},
				Body: []byte(fmt.Sprintf(`{"id":"msg_%d","type":"message","role":"assistant","content":[{"type":"text","text":%q}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`, i, call.answer))},
		})
	}
	path := filepath.Join(t.TempDir(), "steps.yaml")
	if err := cassette.Save(path, c); err != nil {
		t.Fatal(err)
	}
	page, _ := render(t, []string{path})
	tests := []struct {
		call          string
		want, notWant []string
	}{
		{"f0-c1", []string{"… 2 earlier messages sent again unchanged", ">q2</div>"}, []string{`tag changed">changed</span>`, "not sent again"}},
		{"f0-c2", []string{"… 1 earlier message sent again unchanged", `tag changed">changed</span>`, `<span class="del">- a1</span>`, `<span class="add">+ a1 edited</span>`, "… 2 earlier messages sent again unchanged", ">q3</div>"},
			[]string{">q2</div>", "not sent again"}},
		{"f0-c3", []string{"✕ not sent again: a message of assistant [text] from <a href=\"#f0-c2\">call 2's request</a>", "… 3 earlier messages sent again unchanged", ">q4</div>"},
			[]string{`tag changed">changed</span>`, ">q3</div>"}},
		{"f0-c4", []string{">another question</div>"}, []string{`tag changed">changed</span>`, "not sent again", "earlier message"}},
	}
	for _, tt := range tests {
		sec := callSection(t, page, tt.call)
		for _, w := range tt.want {
			if !strings.Contains(sec, w) {
				t.Errorf("%s lacks %q:\n%s", tt.call, w, sec)
			}
		}
		for _, w := range tt.notWant {
			if strings.Contains(sec, w) {
				t.Errorf("%s has %q:\n%s", tt.call, w, sec)
			}
		}
	}
}

// Gemini recordings, id-less parallel calls, pydantic-ai's echo that adds
// its own ids, and signatures on call parts.
var geminiSample = []string{
	"../../fixtures/checks/GEM-SIG-002/pass-real-signature-echoed.yaml",
	"../../fixtures/checks/GEM-TOOL-002/pass-real-responses-one-content-each.yaml",
	"../../fixtures/checks/GEM-TOOL-002/fail-function-response-dropped.i2.yaml",
	"../../fixtures/checks/GEM-SIG-003/fail-one-signature-byte-flipped.i1.yaml",
	"../../fixtures/checks/GEM-SIG-003/pass-real-url-safe-echo.yaml",
}

var labelRE = regexp.MustCompile(`class="block-label">(?:<a href="#[^"]*">)?([^<]*)`)

// Every tool call and result names its pairing key, every thoughtSignature
// is shown by size and hash on the response and on the request that echoes
// it, and a result links to its call.
func TestGeminiPairingAndSignatures(t *testing.T) {
	page, _ := render(t, geminiSample)
	for _, m := range labelRE.FindAllStringSubmatch(page, -1) {
		label := html.UnescapeString(m[1])
		if strings.HasSuffix(strings.TrimSpace(label), "·") || strings.HasSuffix(strings.TrimSpace(label), " for") {
			t.Errorf("a label ends in nothing: %q", label)
		}
		if strings.HasPrefix(label, "tool call") || strings.HasPrefix(label, "tool result") {
			if !strings.Contains(label, "· id ") && !strings.Contains(label, "for id ") && !strings.Contains(label, "paired by name") {
				t.Errorf("a tool label without its pairing key: %q", label)
			}
		}
	}
	unescaped := html.UnescapeString(page)
	for _, want := range []string{
		// the response's call part, then the request's echo with pydantic-ai's id added
		"tool call get_country · no id: paired by name, #1 · thoughtSignature 1.4 KiB sha256:cb8fcd01",
		"tool call get_country · id pyd_ai_29bf73b69e02448588e15893d47a3e7e · thoughtSignature 1.4 KiB sha256:cb8fcd01",
		// parallel id-less calls and their results, linked in order to the
		// echo of the calls just before them
		`<a href="#f1-tool-f1-c1-request_contents_1_-1">tool result for parallel_local_search_two · no id: paired by name, #1</a>`,
		// the call message echoed unchanged, shown for the finding on its signature
		`tool call parallel_local_search_two · no id: paired by name, #1</span>`,
	} {
		if !strings.Contains(unescaped, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// one byte of the echo flipped: two hashes; echoed URL-safe: one
	flipped, urlSafe := fileSection(t, unescaped, "f3"), fileSection(t, unescaped, "f4")
	if !strings.Contains(flipped, "thoughtSignature 1.4 KiB sha256:cb8fcd01") || !strings.Contains(flipped, "thoughtSignature 1.4 KiB sha256:f6437d06") {
		t.Error("the flipped signature does not read as another")
	}
	if n := strings.Count(urlSafe, "thoughtSignature 1.4 KiB sha256:"); n != 4 || strings.Count(urlSafe, "sha256:cb8fcd01") != n {
		t.Errorf("the signature echoed URL-safe reads as another: %d labels, %d with its hash", n, strings.Count(urlSafe, "sha256:cb8fcd01"))
	}
	if strings.Count(unescaped, "thoughtSignature") < 6 {
		t.Errorf("thoughtSignature shown %d times", strings.Count(unescaped, "thoughtSignature"))
	}
}

var (
	hrefRE = regexp.MustCompile(`href="#([^"]*)"`)
	idRE   = regexp.MustCompile(` id="([^"]*)"`)
)

// Every in-page link has its target, and no id is defined twice: the check
// rows link to findings, results to their calls, diffs to earlier calls.
func TestAnchorsResolve(t *testing.T) {
	page, _ := render(t, append(append(append([]string{}, sample...), geminiSample...), editedHistory))
	ids := map[string]int{}
	for _, m := range idRE.FindAllStringSubmatch(page, -1) {
		ids[m[1]]++
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("id %q defined %d times", id, n)
		}
	}
	hrefs := hrefRE.FindAllStringSubmatch(page, -1)
	if len(hrefs) < 40 {
		t.Fatalf("only %d in-page links", len(hrefs))
	}
	for _, m := range hrefs {
		if ids[m[1]] == 0 {
			t.Errorf("href=\"#%s\" points at no element", m[1])
		}
	}
	if !strings.Contains(page, `<td><a href="#f`) {
		t.Error("the check rows link to no finding")
	}
}

// Files with findings come first, errors before warnings, in the list and
// in the page.
func TestFilesWithFindingsFirst(t *testing.T) {
	clean := "../../fixtures/checks/GEM-TOOL-002/pass-real-sequential-steps.yaml"
	warning := "../../fixtures/checks/HIST-005/fail-handbuilt-feedback-kept-after-retry.i2.yaml"
	failing := "../../fixtures/checks/GEM-TOOL-002/fail-function-response-dropped.i2.yaml"
	page, rep := render(t, []string{clean, warning, failing})
	if rep.Files[2].Path != failing {
		t.Fatalf("the report's order changed: %v", rep.Files)
	}
	nav := page[strings.Index(page, "<nav>"):strings.Index(page, "</nav>")]
	for _, body := range []string{nav, page[strings.Index(page, "<main>"):]} {
		f, w, c := strings.Index(body, failing), strings.Index(body, warning), strings.Index(body, clean)
		if f < 0 || w < 0 || c < 0 || f > w || w > c {
			t.Errorf("files not ordered by findings (error at %d, warning at %d, clean at %d)", f, w, c)
		}
	}
}
