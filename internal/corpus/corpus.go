// Package corpus finds the corpus of real recorded provider traffic that the
// tests run on: testdata/corpus in the repository, or $LLMTCK_CORPUS.
package corpus

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// The corpus sets: dev holds Anthropic, OpenAI and Gemini recordings made on
// the providers' own APIs; wave2 holds gateway and OpenAI-compatible ones
// (Bedrock, Vertex, Azure, OpenRouter, DeepSeek, Ollama …).
const (
	Dev   = "dev"
	Wave2 = "wave2"
)

// Root returns the folder holding the corpus sets: $LLMTCK_CORPUS when set
// (a folder with dev/ and wave2/ in it), otherwise testdata/corpus of this
// repository, which holds byte-exact copies of the recordings with their
// manifests and licences, so a bare clone runs every test.
func Root(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("LLMTCK_CORPUS"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("corpus: cannot tell where the repository is; set LLMTCK_CORPUS")
	}
	// file is <repo>/internal/corpus/corpus.go.
	d := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "corpus")
	if st, err := os.Stat(filepath.Join(d, Dev)); err != nil || !st.IsDir() {
		tb.Fatalf("corpus: no %s; set LLMTCK_CORPUS to a folder holding dev/ and wave2/", filepath.Join(d, Dev))
	}
	return d
}

// Dir returns the dev set's folder. It fails the test when there is none,
// since a test that silently skips its real traffic proves nothing.
func Dir(tb testing.TB) string {
	tb.Helper()
	return SetDir(tb, Dev)
}

// SetDir returns the folder of one corpus set (Dev or Wave2).
func SetDir(tb testing.TB, set string) string {
	tb.Helper()
	d := filepath.Join(Root(tb), set)
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		tb.Fatalf("corpus: no set %q under %s", set, Root(tb))
	}
	return d
}

// Files returns every recording of the dev set (not the manifest or
// licences), sorted, as paths.
func Files(tb testing.TB) []string {
	tb.Helper()
	return SetFiles(tb, Dev)
}

// SetFiles returns every recording of one corpus set, sorted, as paths.
func SetFiles(tb testing.TB, set string) []string {
	tb.Helper()
	dir := SetDir(tb, set)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if name == "MANIFEST.tsv" || strings.HasPrefix(name, "LICENSE") || strings.HasSuffix(name, ".md") {
			return nil
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// Name returns a corpus file's path relative to its set's folder, a stable
// name for golden files and subtests.
func Name(tb testing.TB, path string) string {
	for _, set := range []string{Dev, Wave2} {
		if rel, err := filepath.Rel(filepath.Join(Root(tb), set), path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(path)
}

// MaxFuzzSeed is the largest recording body worth seeding a fuzz target
// with: the fuzzer runs every seed under coverage before it mutates any,
// and multi-megabyte streams made that baseline take the whole -fuzztime,
// leaving no time to mutate.
const MaxFuzzSeed = 32 << 10

// FuzzSeed reports whether bodies are all small enough to seed a fuzz
// target with.
func FuzzSeed(bodies ...[]byte) bool {
	for _, b := range bodies {
		if len(b) > MaxFuzzSeed {
			return false
		}
	}
	return true
}
