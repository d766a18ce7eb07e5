package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	govcr "github.com/dnaeon/go-vcr/v2/cassette"

	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/internal/corpus"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckCorpusJSON(t *testing.T) {
	dir := corpus.Dir(t)
	code, out, errOut := runCLI(t, "check", "--format", "json", dir)
	// The corpus holds one real violation (a Responses history edit the API
	// rejected with 400), so check exits 1, and only for that.
	if code != 1 {
		t.Fatalf("check exited %d, want 1\nstderr: %s\nstdout: %s", code, errOut, out)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out)
	}
	if rep.Version != 1 {
		t.Errorf("version = %d, want 1", rep.Version)
	}
	if got, want := len(rep.Files), len(corpus.Files(t)); got != want {
		t.Errorf("report has %d files, corpus has %d", got, want)
	}
	for _, f := range rep.Files {
		if f.Error != "" {
			t.Errorf("%s: file error: %s", f.Path, f.Error)
		}
		if len(f.Statuses) != f.Interactions {
			t.Errorf("%s: %d statuses for %d interactions", f.Path, len(f.Statuses), f.Interactions)
		}
		for _, fd := range f.Findings {
			if fd.Severity == "error" && f.Statuses[fd.Interaction]/100 == 2 {
				t.Errorf("%s: error-level finding on accepted traffic: %s", f.Path, fd)
			}
		}
	}
}

func TestCheckTextReport(t *testing.T) {
	code, out, _ := runCLI(t, "check", corpus.Dir(t))
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "test_anthropic_tool_with_thinking.yaml  anthropic  2 interactions  status 200×2") {
		t.Errorf("text report lacks the per-file status line:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^33 files, 69 interactions: [1-9][0-9]* errors?, [0-9]+ warnings?\n\z`).MatchString(out) {
		t.Errorf("text report summary line:\n%s", out[max(0, len(out)-300):])
	}
}

func TestCheckUnreadableFileStillChecksOthers(t *testing.T) {
	dir := t.TempDir()
	good := corpus.Files(t)[0]
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "a_good.yaml"), data)
	writeFile(t, filepath.Join(dir, "b_binary.yaml"), []byte("\x00\x01\x02\xff garbage"))
	writeFile(t, filepath.Join(dir, "c_empty.yaml"), nil)
	code, out, _ := runCLI(t, "check", "--format", "json", dir)
	if code != 2 {
		t.Errorf("exit %d, want 2 for unreadable input", code)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report is not JSON: %v", err)
	}
	if len(rep.Files) != 3 {
		t.Fatalf("want 3 files reported, got %d", len(rep.Files))
	}
	if rep.Files[0].Error != "" || rep.Files[0].Interactions == 0 {
		t.Errorf("good file not checked: %+v", rep.Files[0])
	}
	for _, f := range rep.Files[1:] {
		if f.Error == "" || !strings.Contains(f.Error, filepath.Base(f.Path)) || strings.Contains(f.Error, "\n") {
			t.Errorf("%s: want a one-line error naming the file, got %q", f.Path, f.Error)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"check"},
		{"check", "--format", "xml", "."},
		{"check", "--provider", "bedrock", "."},
		{"check", "--no-such-flag", "."},
		{"check", "/no/such/path"},
		{"check", "--only", "NOPE-*", corpusDirOrDot(t)},
		// Filters that select checks, none of which applies: nothing checked.
		{"check", "--only", "GEM-*", filepath.Join("..", "..", "fixtures", "demo", "anthropic-thinking-tool-loop.yaml")},
		{"import", "x.yaml"},
		{"nosuchverb"},
	} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("llmtck %s: exit %d, want 2", strings.Join(args, " "), code)
		}
	}
}

func corpusDirOrDot(t *testing.T) string { return corpus.Dir(t) }

func TestCheckNothingToCheck(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "LICENSE"), []byte("MIT"))
	if code, _, errOut := runCLI(t, "check", dir); code != 2 || !strings.Contains(errOut, "no recordings") {
		t.Errorf("exit %d (%s), want 2 and 'no recordings'", code, errOut)
	}
}

// TestImportCorpus imports every corpus file and loads each result with
// stock go-vcr v2.1.0.
func TestImportCorpus(t *testing.T) {
	out := t.TempDir()
	files := corpus.Files(t)
	args := append([]string{"import", "-o", out}, files...)
	code, stdout, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("import exited %d\n%s\n%s", code, stdout, stderr)
	}
	written, _ := filepath.Glob(filepath.Join(out, "*.yaml"))
	if len(written) != len(files) {
		t.Fatalf("wrote %d cassettes for %d inputs", len(written), len(files))
	}
	for _, w := range written {
		c, err := govcr.Load(strings.TrimSuffix(w, ".yaml"))
		if err != nil {
			t.Errorf("go-vcr v2 cannot load %s: %v", w, err)
			continue
		}
		if len(c.Interactions) == 0 {
			t.Errorf("%s: no interactions", w)
		}
	}
	// The imported cassettes check the same as the originals.
	_, want, _ := runCLI(t, "check", "--format", "json", corpus.Dir(t))
	_, got, _ := runCLI(t, "check", "--format", "json", out)
	if s1, s2 := summaryOf(t, want), summaryOf(t, got); s1 != s2 {
		t.Errorf("imported cassettes check differently: %+v, originals %+v", s2, s1)
	}
}

func summaryOf(t *testing.T, jsonReport string) report.Summary {
	t.Helper()
	var rep report.Report
	if err := json.Unmarshal([]byte(jsonReport), &rep); err != nil {
		t.Fatalf("not a JSON report: %v", err)
	}
	return rep.Summary
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
