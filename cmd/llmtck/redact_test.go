package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	govcr2 "github.com/dnaeon/go-vcr/v2/cassette"
	govcr4 "gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/report"
)

// The credentials in XP-SECRET-001's fail fixtures (a key header, a key
// query parameter, a key pasted into a prompt), made up with real shapes.
var leakyFixtures = []string{"fail-api-key-header-kept.i0.yaml", "fail-key-query-kept.i1.yaml", "fail-key-pasted-in-prompt.i0.yaml", "fail-live-looking-api-key.i0.yaml"}

// check is a secret gate: a live-looking credential is an error (exit 1);
// redact scrubs the cassettes in place, in their own layout, after which
// check passes the gate and stock go-vcr v2 and v4 still load them.
func TestRedactScrubsWhatCheckFinds(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, name := range leakyFixtures {
		src, err := cassette.Load(filepath.Join("..", "..", "fixtures", "checks", "XP-SECRET-001", name))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, name)
		save := cassette.Save
		if i%2 == 1 { // half in go-vcr v4's layout
			save = cassette.SaveV4
		}
		if err := save(dst, src); err != nil {
			t.Fatal(err)
		}
		files = append(files, dst)
	}
	code, stdout, _ := runCLI(t, append([]string{"check", "--format", "json"}, files...)...)
	if code != 1 {
		t.Fatalf("check exit %d, want 1 for leaked credentials", code)
	}
	if n := secretFindings(t, stdout); n != len(files) {
		t.Fatalf("%d XP-SECRET-001 findings, want %d:\n%s", n, len(files), stdout)
	}

	if code, out, errOut := runCLI(t, append([]string{"redact", "--dry-run"}, files...)...); code != 0 || strings.Count(out, "would be masked") != len(files) {
		t.Fatalf("redact --dry-run: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, _ := runCLI(t, append([]string{"check", "--format", "json", "--only", "XP-SECRET-001"}, files...)...); code != 1 {
		t.Fatal("--dry-run wrote the files")
	}
	code, out, errOut := runCLI(t, append([]string{"redact"}, files...)...)
	if code != 0 || strings.Count(out, " masked\n") != len(files) {
		t.Fatalf("redact: exit %d\n%s%s", code, out, errOut)
	}
	_, stdout, _ = runCLI(t, append([]string{"check", "--format", "json"}, files...)...)
	if n := secretFindings(t, stdout); n != 0 {
		t.Fatalf("%d XP-SECRET-001 findings left after redact:\n%s", n, stdout)
	}
	for i, f := range files {
		data, _ := os.ReadFile(f)
		for _, secret := range []string{"sk-ant-api03-Q7mZ", "gk-9fQ2mX7vL4pR8sT1wB6nY3cH", "sk-proj-Ab3d"} {
			if strings.Contains(string(data), secret) {
				t.Errorf("%s still holds %s", f, secret)
			}
		}
		if i%2 == 1 {
			if _, err := govcr4.Load(strings.TrimSuffix(f, ".yaml")); err != nil {
				t.Errorf("go-vcr v4 cannot load %s after redact: %v", f, err)
			}
		} else if _, err := govcr2.Load(strings.TrimSuffix(f, ".yaml")); err != nil {
			t.Errorf("go-vcr v2 cannot load %s after redact: %v", f, err)
		}
	}
	if code, out, _ := runCLI(t, append([]string{"redact"}, files...)...); code != 0 || strings.Count(out, "clean") != len(files) {
		t.Errorf("a second redact changed something:\n%s", out)
	}
}

// import scrubs what it converts.
func TestImportScrubs(t *testing.T) {
	src := filepath.Join("..", "..", "fixtures", "checks", "XP-SECRET-001", "fail-key-pasted-in-prompt.i0.yaml")
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "import", src, "-o", out)
	if code != 0 || !strings.Contains(stdout, "masked)") {
		t.Fatalf("import: exit %d\n%s%s", code, stdout, stderr)
	}
	data, _ := os.ReadFile(filepath.Join(out, "fail-key-pasted-in-prompt.i0.yaml"))
	if strings.Contains(string(data), "sk-proj-Ab3d") || !strings.Contains(string(data), "REDACTED") {
		t.Errorf("the imported cassette is not scrubbed:\n%s", data)
	}
}

func secretFindings(t *testing.T, jsonReport string) int {
	t.Helper()
	var r report.Report
	if err := json.Unmarshal([]byte(jsonReport), &r); err != nil {
		t.Fatalf("%v\n%s", err, jsonReport)
	}
	n := 0
	for _, f := range r.Files {
		for _, fd := range f.Findings {
			if fd.Check == "XP-SECRET-001" {
				n++
			}
		}
	}
	return n
}
