package checks_test

import (
	"io/fs"
	"regexp"
	"strconv"
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
	"github.com/llmtck/llmtck/fixtures"
	"github.com/llmtck/llmtck/providers"
)

var failName = regexp.MustCompile(`^fail-[a-z0-9-]+\.i([0-9]+)\.yaml$`)
var passName = regexp.MustCompile(`^pass-[a-z0-9-]+\.yaml$`)

// TestCheckFixtures runs the whole catalogue over every bundled fixture
// (read from the embedded file system harness repos get): each fail fixture
// raises its check at its interaction, each pass fixture raises none of it.
// Each family's TestFixturesUpToDate writes them from their specs.
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
						t.Errorf("pass fixture raised %s:\n%s", id, checktest.FindingLines(got))
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
						t.Errorf("fail fixture did not raise %s at interaction %d; findings:\n%s", id, want, checktest.FindingLines(findings))
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
	tr := &check.Traffic{Path: name, Exchanges: providers.DecodeCassette(c, ""), Ephemeral: c.Ephemeral, Torn: c.Torn}
	return check.Judge(tr, checks.All())
}
