package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runStdin runs the CLI with stdin.
func runStdin(t *testing.T, stdin []byte, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runIO(args, bytes.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// `check -` reads a recording from stdin and names it "-".
func TestCheckReadsStdin(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "checks", "ANT-TOOL-001", "fail-tool-result-dropped.i1.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runStdin(t, data, "check", "-")
	if code != 1 || !strings.HasPrefix(out, "-  anthropic  2 interactions") || !strings.Contains(out, "ANT-TOOL-001") {
		t.Errorf("check -: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runStdin(t, data, "check", "-", "-"); code != 2 || !strings.Contains(errOut, "twice") {
		t.Errorf("check - -: exit %d %q", code, errOut)
	}
}

// `import -o -` writes the one cassette to stdout; a failed import leaves no
// empty folder behind.
func TestImportToStdout(t *testing.T) {
	src := filepath.Join("..", "..", "fixtures", "checks", "ANT-TOOL-001", "pass-real-tool-call.yaml")
	code, out, errOut := runCLI(t, "import", src, "-o", "-")
	if code != 0 || !strings.HasPrefix(out, "---\nversion: 1\ninteractions:\n") {
		t.Fatalf("import -o -: exit %d\n%.200s%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "import", "--to", "govcr-v4", src, "-o", "-")
	if code != 0 || !strings.Contains(out, "\nversion: 2\n") {
		t.Errorf("import --to govcr-v4 -o -: exit %d", code)
	}
	if code, _, errOut := runCLI(t, "import", src, src, "-o", "-"); code != 2 || !strings.Contains(errOut, "one cassette") {
		t.Errorf("two inputs to stdout: exit %d %q", code, errOut)
	}
	dir := filepath.Join(t.TempDir(), "out")
	bad := filepath.Join(t.TempDir(), "junk.yaml")
	os.WriteFile(bad, []byte("not: [a recording"), 0o644)
	if code, _, _ := runCLI(t, "import", bad, "-o", dir); code != 2 {
		t.Errorf("a failed import exits %d", code)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a failed import left %s behind (%v)", dir, err)
	}
}

// A file read from stdin is named "-" in messages too, and its temporary
// copy is gone afterwards, also when the reader of the output closes the
// pipe before llmtck writes (`llmtck check - | head -0`).
func TestStdinLeavesNothingBehind(t *testing.T) {
	if os.Getenv("LLMTCK_TEST_MAIN") == "1" {
		os.Exit(runIO(strings.Fields(os.Getenv("LLMTCK_TEST_ARGS")), os.Stdin, os.Stdout, os.Stderr))
	}
	code, out, _ := runStdin(t, []byte("x: ["), "check", "-")
	if code != 2 || !strings.Contains(out, "-: error: -:1:") || strings.Contains(out, "llmtck-stdin") {
		t.Errorf("check - of broken YAML: exit %d\n%s", code, out)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "demo", "gemini-signature-echo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{"check -", "view - -o -"} {
		tmp := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestStdinLeavesNothingBehind$")
		cmd.Env = append(os.Environ(), "LLMTCK_TEST_MAIN=1", "LLMTCK_TEST_ARGS="+args, "TMPDIR="+tmp)
		cmd.Stdin = bytes.NewReader(data)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout = w
		r.Close() // the reader is gone before llmtck writes a byte
		err = cmd.Run()
		w.Close()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("llmtck %s into a closed pipe: %v; want exit 2 (a write error), not a signal", args, err)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("llmtck %s into a closed pipe left %s in TMPDIR", args, left[0].Name())
		}
	}
}
