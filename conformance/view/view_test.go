package view_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/golden"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/conformance/view"
)

// Real recordings with findings of three kinds: reasoning dropped from a
// Bedrock tool loop, a tool result dropped, ephemeral feedback kept.
var sample = []string{
	"../../fixtures/checks/BDR-THINK-004/fail-reasoning-dropped-from-tool-loop.i1.yaml",
	"../../fixtures/checks/ANT-TOOL-001/fail-tool-result-dropped.i1.yaml",
	"../../fixtures/checks/HIST-005/fail-handbuilt-feedback-kept-after-retry.i2.yaml",
	"../../fixtures/checks/ANT-THINK-001/fail-redacted-data-byte-flipped.i1.yaml",
}

func render(t *testing.T, paths []string) (string, *report.Report) {
	t.Helper()
	rep, err := report.CheckPaths(paths, checks.All(), "")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := view.Write(&buf, "llmtck view", rep, view.Load(rep)); err != nil {
		t.Fatal(err)
	}
	return buf.String(), rep
}

// The page of the sample, pinned. Rewrite with:
// go test ./conformance/view -run TestPageGolden -update
func TestPageGolden(t *testing.T) {
	page, _ := render(t, sample)
	golden.Assert(t, page, "sample.html.golden")
}

// The page is self-contained: no script, stylesheet, image or font is
// fetched from anywhere.
func TestPageSelfContained(t *testing.T) {
	page, _ := render(t, sample)
	for _, ref := range []string{"<script src", "<link", "@import", "url(", "<img", "http://", "//fonts."} {
		if ref == "http://" {
			continue // recorded URLs are shown as text
		}
		if strings.Contains(page, ref) {
			t.Errorf("the page refers to an outside asset: %q", ref)
		}
	}
	for _, want := range []string{
		`data-check="BDR-THINK-004"`, `data-check="ANT-TOOL-001"`, `data-check="HIST-005"`,
		"redacted thinking · data", "tool result for ", "class=\"tag\">ephemeral", "how to fix",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// A large growing conversation renders, each call showing only what it
// adds, long bodies folded. 25 MB by default (LLMTCK_VIEW_MB=50 for the
// issue's figure); the time and size are logged, not asserted.
func TestLargeCassetteRenders(t *testing.T) {
	mb := 25
	if v, err := strconv.Atoi(os.Getenv("LLMTCK_VIEW_MB")); err == nil && v > 0 {
		mb = v
	}
	path := filepath.Join(t.TempDir(), "big.yaml")
	c := &cassette.Cassette{}
	text := strings.Repeat("the quick brown fox jumps over the lazy dog ", 1200) // ~52 KB
	var history []string
	size := 0
	for i := 0; size < mb<<20; i++ {
		history = append(history, fmt.Sprintf(`{"role":"user","content":%q}`, fmt.Sprint(i, " ", text)))
		body := `{"model":"claude-x","max_tokens":10,"messages":[` + strings.Join(history, ",") + `]}`
		answer := fmt.Sprintf("answer %d", i)
		c.Interactions = append(c.Interactions, &cassette.Interaction{
			Request: cassette.Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages", Header: http.Header{}, Body: []byte(body)},
			Response: cassette.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}},
				Body: []byte(fmt.Sprintf(`{"id":"msg_%d","type":"message","role":"assistant","content":[{"type":"text","text":%q}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`, i, answer))},
		})
		history = append(history, fmt.Sprintf(`{"role":"assistant","content":%q}`, answer))
		size += len(body)
	}
	if err := cassette.Save(path, c); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	start := time.Now()
	page, rep := render(t, []string{path})
	t.Logf("%.1f MB cassette, %d interactions: rendered in %v, page %.1f MB", float64(st.Size())/(1<<20), rep.Summary.Interactions, time.Since(start), float64(len(page))/(1<<20))
	if n := strings.Count(page, `<details class="bubble`); n < len(c.Interactions) {
		t.Errorf("%d folded bodies for %d calls, each with a 52 KB prompt", n, len(c.Interactions))
	}
	if len(page) > int(st.Size())/4 {
		t.Errorf("the page (%d bytes) repeats the history (cassette %d bytes)", len(page), st.Size())
	}
}

// chromium finds a headless browser, or says how to install one.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium on this machine: the page was checked as text only; install Debian's chromium package (apt-get install chromium) to run it in a browser")
	return ""
}

// In a real headless browser the page loads, the turns and the findings are
// in the DOM, and a screenshot of it is taken.
func TestPageInBrowser(t *testing.T) {
	page, _ := render(t, sample)
	b := openBrowser(t, page)
	bin, args, dir, srv := b.bin, b.args, b.dir, b.srv
	dom := b.dom(t)
	for _, want := range []string{
		"What is the largest city in the user country?",           // a user turn
		`data-check="BDR-THINK-004"`, `data-check="ANT-TOOL-001"`, // findings where they point
		"tool call list_directory", "HTTP 200",
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered DOM lacks %q", want)
		}
	}
	shot := filepath.Join(dir, "page.png")
	if out, err := exec.Command(bin, append(args, "--hide-scrollbars", "--window-size=1280,2000", "--screenshot="+shot, srv.URL)...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	st, err := os.Stat(shot)
	if err != nil || st.Size() < 10<<10 {
		t.Fatalf("no screenshot: %v", err)
	}
	t.Logf("screenshot: %s (%d bytes)", shot, st.Size())
}

// browser is a headless Chromium and a loopback server of one page.
type browser struct {
	bin, dir string
	args     []string
	srv      *httptest.Server
}

// openBrowser serves page on loopback for a headless Chromium, or skips
// the test when there is none.
func openBrowser(t *testing.T, page string) *browser {
	bin := chromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	args := []string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--user-data-dir=" + filepath.Join(dir, "profile")}
	return &browser{bin: bin, dir: dir, args: args, srv: srv}
}

// dom is the page's DOM as the browser built it.
func (b *browser) dom(t *testing.T) string {
	t.Helper()
	dom, err := exec.Command(b.bin, append(b.args, "--dump-dom", b.srv.URL)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	return string(dom)
}
