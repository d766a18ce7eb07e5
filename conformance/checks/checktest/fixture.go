package checktest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/fixtures"
	"github.com/llmtck/llmtck/internal/corpus"
)

// Fixture says how one fixture under fixtures/checks is made: from a real
// corpus recording with at most one deliberate mutation, or built by hand
// where the corpus has no such shape.
type Fixture struct {
	Check string // the check the fixture proves
	Name  string // what the fixture shows, kebab-case
	Pass  bool   // a pass fixture raises no finding of Check
	// Interaction is where a fail fixture must raise Check.
	Interaction int
	// Source is the corpus recording (relative to the corpus dev folder)
	// the fixture is made from; "" for a hand-built fixture.
	Source string
	// Mutate is the single deliberate change to the real traffic; nil keeps
	// the recording as it is (pass fixtures).
	Mutate func(t *testing.T, c *cassette.Cassette)
	// Build makes a hand-built fixture (Source == "").
	Build func(t *testing.T) *cassette.Cassette
	// Raw, when set, gives the fixture's bytes as they are: a file no
	// cassette encodes to (a recording cut in the middle).
	Raw func(t *testing.T) []byte
}

// File is where the fixture is written, relative to fixtures/checks.
func (s Fixture) File() string {
	if s.Pass {
		return path.Join(s.Check, "pass-"+s.Name+".yaml")
	}
	return path.Join(s.Check, fmt.Sprintf("fail-%s.i%d.yaml", s.Name, s.Interaction))
}

// Make builds the fixture cassette from its spec.
func (s Fixture) Make(t *testing.T) *cassette.Cassette {
	t.Helper()
	if s.Source == "" {
		if s.Build == nil {
			t.Fatalf("%s: neither Source nor Build", s.File())
		}
		return s.Build(t)
	}
	// Sources are relative to the dev set; a wave2 source names its set.
	dir := corpus.Dir(t)
	if strings.HasPrefix(s.Source, corpus.Wave2+"/") {
		dir = corpus.Root(t)
	}
	c, err := cassette.Load(filepath.Join(dir, filepath.FromSlash(s.Source)))
	if err != nil {
		t.Fatal(err)
	}
	if s.Mutate != nil {
		s.Mutate(t, c)
	}
	return c
}

// fixturesDir is fixtures/checks of this repository.
func fixturesDir(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("checktest: cannot tell where the repository is")
	}
	// file is <repo>/conformance/checks/checktest/fixture.go.
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "fixtures", "checks")
}

// FixturesUpToDate regenerates every fixture of a family from its spec and
// compares it with the committed file; -update rewrites them:
//
//	go test ./conformance/checks/... -run TestFixturesUpToDate -update
//
// Each spec proves a check of family, and every committed fixture of the
// family's checks has a spec, so none is edited by hand.
func FixturesUpToDate(t *testing.T, family []*check.Check, specs []Fixture) {
	t.Helper()
	dir := fixturesDir(t)
	own := map[string]bool{}
	for _, c := range family {
		own[c.ID] = true
	}
	want := map[string]bool{}
	for _, s := range specs {
		name := s.File()
		if !own[s.Check] {
			t.Errorf("%s: %s is not a check of this family", name, s.Check)
		}
		if want[name] {
			t.Errorf("two specs write %s", name)
		}
		want[name] = true
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if s.Raw != nil {
				buf.Write(s.Raw(t))
			} else if err := s.Make(t).Encode(&buf); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, filepath.FromSlash(name))
			if golden.FlagUpdate() {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			got, err := os.ReadFile(p)
			if err != nil || !bytes.Equal(got, buf.Bytes()) {
				t.Fatalf("%s is missing or stale; run: go test ./conformance/checks/... -run TestFixturesUpToDate -update", p)
			}
		})
	}
	err := fs.WalkDir(fixtures.Checks, "checks", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		rel := strings.TrimPrefix(p, "checks/")
		if id, _, _ := strings.Cut(rel, "/"); own[id] && !want[rel] {
			t.Errorf("fixtures/%s has no spec (remove it or add one)", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
