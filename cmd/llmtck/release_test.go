package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// repoFile reads a file at the repository's root.
func repoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// goLine is the go directive of go.mod, as major.minor ("1.26").
func goLine(t *testing.T) string {
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(repoFile(t, "go.mod"))
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	return m[1]
}

func TestVersionFlag(t *testing.T) {
	code, out, _ := runCLI(t, "--version")
	if code != 0 || !regexp.MustCompile(`^llmtck (v\d+\.\d+\.\d+\S*|\(devel\)) \(.*go\d+\.\d+`).MatchString(out) {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// Shell completion offers the values of the flags that take a fixed set.
func TestCompletionValues(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"check", "--format", ""}, []string{"text", "json", "junit", "sarif", "github"}},
		{[]string{"check", "--provider", ""}, []string{"auto", "anthropic", "bedrock"}},
		{[]string{"import", "--from", ""}, []string{"vcrpy", "httpmock", "nock", "polly"}},
		{[]string{"replay", "--scenario", ""}, []string{"anthropic/thinking-tool-loop", "bedrock/parallel-tools"}},
	} {
		_, out, _ := runCLI(t, append([]string{"__complete"}, tc.args...)...)
		got := map[string]bool{}
		for _, l := range strings.Split(out, "\n") {
			got[l] = true
		}
		for _, w := range tc.want {
			if !got[w] {
				t.Errorf("completing %v: no %q in\n%s", tc.args, w, out)
			}
		}
	}
}

// The release files agree with each other: a licence, the install line,
// one minimum Go version in go.mod, DESIGN.md and the Dockerfile.
func TestReleaseFiles(t *testing.T) {
	if !strings.HasPrefix(repoFile(t, "LICENSE"), "MIT License") {
		t.Error("LICENSE is not the MIT licence")
	}
	if !strings.Contains(repoFile(t, "README.md"), "go install github.com/llmtck/llmtck/cmd/llmtck@latest") {
		t.Error("README has no install line")
	}
	goVersion := goLine(t)
	if !strings.Contains(repoFile(t, "DESIGN.md"), "Go "+goVersion+" or newer") {
		t.Errorf("DESIGN.md does not state Go %s or newer, as go.mod does", goVersion)
	}
	if !strings.Contains(repoFile(t, "Dockerfile"), "FROM golang:"+goVersion+"-") {
		t.Errorf("the Dockerfile does not build with Go %s, as go.mod says", goVersion)
	}
}

// dockerInstructions are the Dockerfile instructions the image may use.
var dockerInstructions = map[string]bool{"FROM": true, "WORKDIR": true, "COPY": true, "RUN": true, "ENTRYPOINT": true, "ARG": true, "ENV": true, "LABEL": true, "USER": true}

// The Dockerfile parses: known instructions, two stages, the binary built
// from cmd/llmtck and copied into the final stage, an exec-form
// ENTRYPOINT. Where a Docker daemon answers, the image is built and run.
func TestDockerfile(t *testing.T) {
	var froms int
	var entry string
	sc := bufio.NewScanner(strings.NewReader(repoFile(t, "Dockerfile")))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		if !dockerInstructions[word] {
			t.Errorf("Dockerfile:%d: unknown instruction %q", n, word)
		}
		switch word {
		case "FROM":
			froms++
		case "ENTRYPOINT":
			entry = rest
		}
	}
	df := repoFile(t, "Dockerfile")
	var argv []string
	if froms != 2 || json.Unmarshal([]byte(entry), &argv) != nil || len(argv) == 0 ||
		!strings.Contains(df, "./cmd/llmtck") || !strings.Contains(df, "COPY --from=build") {
		t.Fatalf("Dockerfile: %d stages, entrypoint %q", froms, entry)
	}
	if exec.Command("docker", "info").Run() != nil {
		t.Log("no Docker daemon answers here: the Dockerfile was parsed, not built")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "docker", "build", "-q", "-t", "llmtck-test", filepath.Join("..", ".."))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	out, err := exec.CommandContext(ctx, "docker", "run", "--rm", "llmtck-test", "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "llmtck ") {
		t.Fatalf("docker run llmtck --version: %v\n%s", err, out)
	}
}

// The GitHub Actions recipe runs `llmtck check --format github` on its
// cassettes; the same command passes on examples/ci and annotates a
// failing cassette.
func TestGitHubActionRecipe(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "ci")
	raw, err := os.ReadFile(filepath.Join(dir, "llmtck.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(raw, &wf); err != nil {
		t.Fatalf("llmtck.yml: %v", err)
	}
	var cmd []string
	for _, j := range wf.Jobs {
		for _, s := range j.Steps {
			if strings.HasPrefix(s.Run, "llmtck check") {
				cmd = strings.Fields(s.Run)[1:]
			}
		}
	}
	if len(cmd) == 0 {
		t.Fatal("the workflow runs no llmtck check")
	}
	if !strings.Contains(string(raw), "go install github.com/llmtck/llmtck/cmd/llmtck@latest") {
		t.Error("the workflow does not install llmtck")
	}
	cmd[len(cmd)-1] = filepath.Join(dir, cmd[len(cmd)-1])
	code, out, errOut := runCLI(t, cmd...)
	if code != 0 || strings.Contains(out, "::error") || !strings.HasSuffix(out, "2 files, 4 interactions: 0 errors, 0 warnings\n") {
		t.Errorf("%v: exit %d\n%s%s", cmd, code, out, errOut)
	}
	failing := filepath.Join("..", "..", "fixtures", "checks", "ANT-TOOL-001", "fail-tool-result-dropped.i1.yaml")
	code, out, _ = runCLI(t, "check", "--format", "github", failing)
	if code != 1 || !strings.Contains(out, "::error file="+failing+",title=ANT-TOOL-001::interaction 1") {
		t.Errorf("a failing cassette: exit %d\n%s", code, out)
	}
}
