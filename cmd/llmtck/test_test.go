package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/fixtures"
)

func TestTestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"test"}, "give the harness command after --"},
		{[]string{"test", "true"}, "give the harness command after --"},
		{[]string{"test", "--format", "xml", "--", "true"}, "--format"},
		{[]string{"test", "--shard", "3/2", "--", "true"}, "--shard"},
		{[]string{"test", "--shard", "x", "--", "true"}, "--shard"},
		{[]string{"test", "--scenarios", "nothing/*", "--", "true"}, "matches no bundled scenario"},
		{[]string{"test", "--explore", "0", "--", "true"}, "want a number of scenarios"},
		{[]string{"test", "--seed", "7", "--", "true"}, "--seed needs --explore"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// A command that sends nothing fails each scenario it plays, in every
// format, with exit 1.
func TestTestReportsFailures(t *testing.T) {
	code, out, _ := runCLI(t, "test", "--scenarios", "openai/tool-loop", "--scenarios", "gemini/follow-up", "--format", "json", "--", "sh", "-c", "echo started; exit 0")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	var rep struct {
		Version   int
		Scenarios []struct {
			Name     string
			Pass     bool
			Failures []string
			Output   string
		}
		Summary struct{ Scenarios, Passed, Failed int }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if rep.Version != 1 || rep.Summary.Failed != 2 || len(rep.Scenarios) != 2 || rep.Scenarios[0].Name != "openai/tool-loop" ||
		rep.Scenarios[0].Pass || rep.Scenarios[0].Output != "started\n" || !strings.Contains(strings.Join(rep.Scenarios[0].Failures, "\n"), "the harness sent no request") {
		t.Errorf("report %+v", rep)
	}

	code, out, _ = runCLI(t, "test", "--scenarios", "openai/tool-loop", "--format", "junit", "--", "true")
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal([]byte(out), &suites); err != nil || code != 1 || suites.Tests != 1 || suites.Failures != 1 {
		t.Errorf("junit: exit %d, %+v, %v\n%s", code, suites, err, out)
	}
	code, out, _ = runCLI(t, "test", "--scenarios", "openai/tool-loop", "--format", "github", "--", "true")
	if code != 1 || !strings.Contains(out, "::error title=llmtck openai/tool-loop::the harness sent no request") {
		t.Errorf("github: exit %d\n%s", code, out)
	}
}

// Files of the user's are played under their <dir>/<base> name, and a
// harness that plays them passes with exit 0.
func TestTestPlaysFilesWithAHarness(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed here: the example harness cannot run")
	}
	dir := t.TempDir()
	data, err := fixtures.Scenarios.ReadFile("scenarios/openai/tool-loop.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "openai"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "openai", "my-loop.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	harness, _ := filepath.Abs("../../examples/python-harness/harness.py")
	code, out, errOut := runCLI(t, "test", "--scenarios", filepath.Join(dir, "*", "*.json"), "--", py, harness)
	if code != 0 || !strings.Contains(out, "PASS openai/my-loop ") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// --explore N plays N generated scenarios per wire after the selected ones,
// each named after its wire and seed; the same seed gives the same names.
func TestTestExplore(t *testing.T) {
	run := func() (int, string) {
		code, out, _ := runCLI(t, "test", "--scenarios", "openai/tool-loop", "--explore", "1", "--seed", "7", "--format", "json", "--", "sh", "-c", "exit 0")
		return code, out
	}
	code, out := run()
	if code != 1 {
		t.Fatalf("a harness that sends nothing passed generated scenarios: exit %d\n%s", code, out)
	}
	for _, w := range []string{"anthropic/", "openai/", "responses/", "gemini/", "bedrock/"} {
		if strings.Count(out, `"`+w) < 1 {
			t.Errorf("no generated %s scenario was played:\n%.2000s", w, out)
		}
	}
	names := regexp.MustCompile(`"name": "([^"]+)"`)
	if _, again := run(); fmt.Sprint(names.FindAllString(again, -1)) != fmt.Sprint(names.FindAllString(out, -1)) {
		t.Error("the same seed played other scenarios")
	}
	if !strings.Contains(out, `"anthropic/explore-7"`) {
		t.Errorf("generated scenarios are not named after their seed:\n%.600s", out)
	}
}
