package checks_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/fixtures"
	"github.com/llmtck/llmtck/internal/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
)

// fixtureSpec says how one fixture under fixtures/checks is made: from a
// real corpus recording with at most one deliberate mutation, or built by
// hand where the corpus has no such shape.
type fixtureSpec struct {
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
}

// fixtureSpecs are the fixture tables of every check family.
var fixtureSpecs = slices.Concat(anthropicFixtures, openaiFixtures, geminiFixtures, bedrockFixtures, compatFixtures, deepseekFixtures, historyFixtures, streamFixtures, xpFixtures, retryFixtures)

func (s fixtureSpec) file() string {
	if s.Pass {
		return path.Join(s.Check, "pass-"+s.Name+".yaml")
	}
	return path.Join(s.Check, fmt.Sprintf("fail-%s.i%d.yaml", s.Name, s.Interaction))
}

// TestFixturesUpToDate regenerates every fixture from its spec and compares
// it with the committed file; -update rewrites them:
//
//	go test ./conformance/checks -run TestFixturesUpToDate -update
func TestFixturesUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..", "fixtures", "checks")
	want := map[string]bool{}
	for _, s := range fixtureSpecs {
		name := s.file()
		if want[name] {
			t.Errorf("two specs write %s", name)
		}
		want[name] = true
		t.Run(name, func(t *testing.T) {
			c := s.make(t)
			var buf bytes.Buffer
			if err := c.Encode(&buf); err != nil {
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
				t.Fatalf("%s is missing or stale; run: go test ./conformance/checks -run TestFixturesUpToDate -update", p)
			}
		})
	}
	// Every committed fixture has a spec, so none is edited by hand.
	err := fs.WalkDir(fixtures.Checks, "checks", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		if rel := strings.TrimPrefix(p, "checks/"); !want[rel] {
			t.Errorf("fixtures/%s has no spec (remove it or add one)", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// make builds the fixture cassette from its spec.
func (s fixtureSpec) make(t *testing.T) *cassette.Cassette {
	t.Helper()
	if s.Source == "" {
		if s.Build == nil {
			t.Fatalf("%s: neither Source nor Build", s.file())
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

var failName = regexp.MustCompile(`^fail-[a-z0-9-]+\.i([0-9]+)\.yaml$`)
var passName = regexp.MustCompile(`^pass-[a-z0-9-]+\.yaml$`)

// TestCheckFixtures runs the whole catalogue over every bundled fixture
// (read from the embedded file system harness repos get): each fail fixture
// raises its check at its interaction, each pass fixture raises none of it.
func TestCheckFixtures(t *testing.T) {
	dirs, err := fs.ReadDir(fixtures.Checks, "checks")
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string][2]int{}
	for _, d := range dirs {
		id := d.Name()
		if !d.IsDir() || !checkID.MatchString(id) {
			continue // NOTICE.md, licenses/
		}
		if checks.Lookup(id) == nil {
			t.Errorf("fixtures/checks/%s: no such check", id)
			continue
		}
		files, _ := fs.ReadDir(fixtures.Checks, "checks/"+id)
		for _, f := range files {
			name := f.Name()
			t.Run(id+"/"+name, func(t *testing.T) {
				findings := judgeFixture(t, "checks/"+id+"/"+name)
				var got []check.Finding
				for _, fd := range findings {
					if fd.Check == id {
						got = append(got, fd)
					}
				}
				switch {
				case passName.MatchString(name):
					c := covered[id]
					c[0]++
					covered[id] = c
					if len(got) > 0 {
						t.Errorf("pass fixture raised %s:\n%s", id, findingLines(got))
					}
				case failName.MatchString(name):
					c := covered[id]
					c[1]++
					covered[id] = c
					want, _ := strconv.Atoi(failName.FindStringSubmatch(name)[1])
					hit := false
					for _, fd := range got {
						hit = hit || fd.Interaction == want
					}
					if !hit {
						t.Errorf("fail fixture did not raise %s at interaction %d; findings:\n%s", id, want, findingLines(findings))
					}
				default:
					t.Errorf("fixture name %q is neither pass-<what>.yaml nor fail-<what>.i<N>.yaml", name)
				}
			})
		}
	}
	// Every check is proven both ways.
	for _, c := range checks.All() {
		if n := covered[c.ID]; c.Retired == "" && (n[0] == 0 || n[1] == 0) {
			t.Errorf("%s has %d pass and %d fail fixtures; it needs at least one of each", c.ID, n[0], n[1])
		}
	}
}

func judgeFixture(t *testing.T, name string) []check.Finding {
	t.Helper()
	data, err := fs.ReadFile(fixtures.Checks, name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cassette.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	tr := &check.Traffic{Path: name, Exchanges: providers.DecodeCassette(c, ""), Ephemeral: c.Ephemeral}
	return check.Judge(tr, checks.All())
}

func findingLines(fs []check.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("  " + f.String() + "\n")
	}
	if b.Len() == 0 {
		return "  (none)\n"
	}
	return b.String()
}
