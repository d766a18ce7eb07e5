// Package corpus finds the shared corpus of real recorded provider traffic
// that the tests run on.
package corpus

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Dir returns the corpus's dev folder: $LLMTCK_CORPUS when set, otherwise
// shared/corpus/dev found beside the repository or any folder above the
// working directory. It fails the test when there is none, since a test that
// silently skips its real traffic proves nothing.
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("LLMTCK_CORPUS"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "shared", "corpus", "dev")
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	tb.Fatalf("corpus: no shared/corpus/dev above %s; set LLMTCK_CORPUS", wd)
	return ""
}

// Files returns every recording in the corpus (not the manifest or licences),
// sorted, as paths.
func Files(tb testing.TB) []string {
	tb.Helper()
	dir := Dir(tb)
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

// Name returns a corpus file's path relative to the dev folder, a stable
// name for golden files and subtests.
func Name(tb testing.TB, path string) string {
	rel, err := filepath.Rel(Dir(tb), path)
	if err != nil {
		return filepath.Base(path)
	}
	return filepath.ToSlash(rel)
}
