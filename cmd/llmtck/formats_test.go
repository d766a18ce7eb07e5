package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	govcr "github.com/dnaeon/go-vcr/v2/cassette"
)

// A folder that mixes recordings with other files: a config.json is not a
// recording (exit 2, naming it) until --exclude leaves it out.
func TestCheckExcludeAndNotARecording(t *testing.T) {
	dir := t.TempDir()
	cassette, err := os.ReadFile("../../fixtures/checks/ANT-STREAM-002/pass-real-tool-stream.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "cassettes"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "cassettes", "run.yaml"), cassette)
	writeFile(t, filepath.Join(dir, "config.json"), []byte(`{"model":"claude-sonnet-4-5","retries":3}`+"\n"))

	code, out, _ := runCLI(t, "check", dir)
	if code != 2 || !strings.Contains(out, "config.json:1: not a recording: a JSON object with keys model, retries") {
		t.Fatalf("check exited %d, want 2 naming config.json as not a recording:\n%s", code, out)
	}
	code, out, errOut := runCLI(t, "check", "--exclude", "config.json", dir)
	if code != 0 || strings.Contains(out, "config.json") {
		t.Fatalf("with --exclude: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, _ := runCLI(t, "check", "--exclude", "[", dir); code != 2 {
		t.Errorf("a malformed --exclude glob exited %d, want 2", code)
	}
}

// import reads the new formats by content and writes cassettes stock go-vcr
// v2 loads: nock, Polly.JS, httpmock and gzip-compressed parallel lists.
func TestImportNewFormats(t *testing.T) {
	out := t.TempDir()
	srcs := []string{
		"../../cassette/testdata/nock-openai-tool-loop.json",
		"../../cassette/testdata/polly-anthropic.har",
		"../../testdata/corpus/wave2/0xPlaygrounds__rig/tests__cassettes__deepseek__reasoning_tool_roundtrip__nonstreaming.yaml",
		"../../testdata/corpus/wave2/langchain-ai__langchain-aws/libs__aws__tests__cassettes__test_thinking[v1].yaml.gz",
	}
	code, stdout, stderr := runCLI(t, append([]string{"import", "-o", out}, srcs...)...)
	if code != 0 {
		t.Fatalf("import exited %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"(nock, 2 interactions)", "(har, 1 interaction)", "(httpmock, 2 interactions)", "(vcrpy-lists, 2 interactions)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("import output lacks %q:\n%s", want, stdout)
		}
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.yaml"))
	if len(files) != len(srcs) {
		t.Fatalf("wrote %d cassettes, want %d", len(files), len(srcs))
	}
	for _, f := range files {
		c, err := govcr.Load(strings.TrimSuffix(f, ".yaml"))
		if err != nil {
			t.Errorf("stock go-vcr cannot load %s: %v", f, err)
			continue
		}
		if len(c.Interactions) == 0 {
			t.Errorf("%s: no interactions", f)
		}
	}
	if code, _, _ := runCLI(t, "check", out); code == 2 {
		t.Errorf("check cannot read the imported cassettes")
	}
}
