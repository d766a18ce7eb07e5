package report

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A folder walk follows links to cassettes and to folders, walks a folder
// reached twice (a loop, or two links) once, and lists a broken link so the
// report says it cannot be read.
func TestCollectFollowsSymlinks(t *testing.T) {
	root := t.TempDir()
	shared := t.TempDir() // cassettes kept elsewhere and linked in
	write := func(path string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("---\nversion: 1\ninteractions: []\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		if err := os.Symlink(target, name); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	write(filepath.Join(root, "a", "one.yaml"))
	write(filepath.Join(shared, "two.yaml"))
	write(filepath.Join(shared, "deep", "three.yaml"))
	link(filepath.Join(shared, "two.yaml"), filepath.Join(root, "a", "linked.yaml"))
	link(shared, filepath.Join(root, "b-shared"))
	link(shared, filepath.Join(root, "c-shared-again"))
	link(root, filepath.Join(root, "a", "loop"))
	link(filepath.Join(root, "gone.yaml"), filepath.Join(root, "broken.yaml"))

	got, err := collect([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i], _ = filepath.Rel(root, got[i])
	}
	want := []string{"a/linked.yaml", "a/one.yaml", "b-shared/deep/three.yaml", "b-shared/two.yaml", "broken.yaml"}
	if !slices.Equal(got, want) {
		t.Errorf("collect = %q, want %q", got, want)
	}
}
