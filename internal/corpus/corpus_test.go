package corpus

import (
	"bufio"
	"crypto/sha1"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopiesAreExact holds every vendored recording to its manifest: the git
// blob sha1 of the file must be the one the manifest names, so nobody edits
// real traffic by accident, and every file on disk is listed.
func TestCopiesAreExact(t *testing.T) {
	for _, set := range []string{Dev, Wave2} {
		t.Run(set, func(t *testing.T) {
			dir := SetDir(t, set)
			listed := map[string]bool{}
			f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			var cols map[string]int
			for line := 1; sc.Scan(); line++ {
				fields := strings.Split(sc.Text(), "\t")
				if cols == nil {
					cols = map[string]int{}
					for i, name := range fields {
						cols[name] = i
					}
					for _, need := range []string{"local_file", "git_blob_sha1"} {
						if _, ok := cols[need]; !ok {
							t.Fatalf("MANIFEST.tsv:1: no %q column", need)
						}
					}
					continue
				}
				local, want := fields[cols["local_file"]], fields[cols["git_blob_sha1"]]
				listed[local] = true
				b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(local)))
				if err != nil {
					t.Errorf("MANIFEST.tsv:%d: %v", line, err)
					continue
				}
				if got := blobSHA1(b); got != want {
					t.Errorf("MANIFEST.tsv:%d: %s has git blob %s, want %s: the copy was edited", line, local, got, want)
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			for _, p := range SetFiles(t, set) {
				if !listed[Name(t, p)] {
					t.Errorf("%s is not in %s's MANIFEST.tsv", Name(t, p), set)
				}
			}
		})
	}
}

// blobSHA1 is what `git hash-object` prints for b.
func blobSHA1(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return fmt.Sprintf("%x", h.Sum(nil))
}
