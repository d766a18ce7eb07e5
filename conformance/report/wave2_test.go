package report_test

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/internal/corpus"
)

// readOnly are the wave2 recordings of servers no check has rules for:
// each is read, named by its dialect, and says why nothing applies.
var readOnly = map[string]string{
	"0xPlaygrounds__rig/tests__cassettes__ollama__reasoning_tool_roundtrip__nonstreaming.yaml":                 "ollama",
	"tmc__langchaingo/llms__ollama__internal__ollamaclient__testdata__TestClient_GenerateChatWithThink.httprr": "ollama",
	"tmc__langchaingo/llms__bedrock__testdata__TestAmazonNova.httprr":                                          "bedrock",
}

// Every wave2 recording (Bedrock, Vertex, Azure, OpenRouter, DeepSeek,
// Groq, Mistral, xAI, Z.ai, Ollama) decodes and names its wire or its
// dialect, and no check raises an error on a call the provider accepted.
func TestWave2EveryFileNamed(t *testing.T) {
	dir := corpus.SetDir(t, "wave2")
	rep, err := report.CheckPaths([]string{dir}, checks.All(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) < 40 {
		t.Fatalf("checked %d wave2 files", len(rep.Files))
	}
	for _, f := range rep.Files {
		name := strings.TrimPrefix(f.Path, dir+"/")
		switch {
		case f.Error != "":
			t.Errorf("%s: does not decode: %s", name, f.Error)
		case f.Provider == "unknown":
			if want, ok := readOnly[name]; !ok || f.Dialect != want || f.Note == "" {
				t.Errorf("%s: no wire (dialect %q, note %q)", name, f.Dialect, f.Note)
			}
		}
		for _, fd := range f.Findings {
			if fd.Severity == "error" && f.Statuses[fd.Interaction] < 300 {
				t.Errorf("%s: error on an accepted call: %s", name, fd)
			}
		}
	}
}
