package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/checks"
)

// docSections returns the sections ("1", "1.4") and rule labels ("A3",
// "G7") that docs/provider-rules.md has headings for.
func docSections(doc string) map[string]bool {
	heading := regexp.MustCompile(`(?m)^#{2,4} (?:(\d+(?:\.\d+)?)\.? |([ACRG]\d+)\. )`)
	have := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(doc, -1) {
		have[m[1]+m[2]] = true
	}
	return have
}

var (
	docSection = regexp.MustCompile(`§(\d+(?:\.\d+)?)(?:–(\d+(?:\.\d+)?))?`)
	docLabel   = regexp.MustCompile(`\b[ACRG]\d{1,2}\b`)
)

// docRefs returns the sections and labels a citation names ("A6, §1.6",
// "§4.4–4.5", "A6/A7, C1/C2").
func docRefs(s string) []string {
	var refs []string
	for _, m := range docSection.FindAllStringSubmatch(s, -1) {
		refs = append(refs, m[1])
		if m[2] != "" {
			refs = append(refs, m[2])
		}
	}
	return append(refs, docLabel.FindAllString(s, -1)...)
}

// TestProviderRulesCatalogue holds docs/provider-rules.md §7 to the
// catalogue: one row per check, with the check's severity and scope, and
// every rule a row names has its section in the document.
func TestProviderRulesCatalogue(t *testing.T) {
	doc := repoFile(t, "docs/provider-rules.md")
	have := docSections(doc)
	start := strings.Index(doc, "\n## 7. ")
	end := strings.Index(doc, "\n## 8. ")
	if start < 0 || end < start {
		t.Fatal("docs/provider-rules.md has no §7 followed by §8")
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(doc[start:end], "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) < 6 || !strings.HasPrefix(line, "| ") || !checkIDShape.MatchString(strings.TrimPrefix(cells[0], "| ")) {
			continue
		}
		id := strings.TrimPrefix(cells[0], "| ")
		if rows[id] != nil {
			t.Errorf("§7 lists %s twice", id)
		}
		rows[id] = cells
	}
	for _, c := range checks.All() {
		row := rows[c.ID]
		if row == nil {
			t.Errorf("§7 has no row for %s", c.ID)
			continue
		}
		delete(rows, c.ID)
		if row[1] != string(c.Severity) || row[2] != c.Scope {
			t.Errorf("§7 gives %s severity %q and scope %q; the catalogue %q and %q", c.ID, row[1], row[2], c.Severity, c.Scope)
		}
		refs := docRefs(row[4])
		if len(refs) == 0 {
			t.Errorf("§7 row of %s names no rule: %q", c.ID, row[4])
		}
		for _, s := range c.Evidence.Sources {
			if i := strings.Index(s, "docs/provider-rules.md"); i >= 0 {
				refs = append(refs, docRefs(s[i:])...)
			}
		}
		for _, r := range refs {
			if !have[r] {
				t.Errorf("%s cites %s, which docs/provider-rules.md has no heading for", c.ID, r)
			}
		}
	}
	for id := range rows {
		t.Errorf("§7 lists %s, which is not in the catalogue", id)
	}
}

var checkIDShape = regexp.MustCompile(`^[A-Z]+(-[A-Z]+)?-[0-9]{3}$`)

// TestCitationsNameRepositoryDocs holds the repository's citations to its
// own documents: no source file or design document cites the team's
// private rule notes or a seed except through docs/provider-rules.md and
// docs/reference-model.md, and every section, rule label and seed cited
// there has its heading.
func TestCitationsNameRepositoryDocs(t *testing.T) {
	rules := docSections(repoFile(t, "docs/provider-rules.md"))
	private := "wire" + "-rules" // spelled apart so this file does not cite them
	model := repoFile(t, "docs/reference-model.md")
	seed := regexp.MustCompile(`(?i)\bseeds? (\d{3})`)
	// A rule citation runs to the end of its clause.
	ruleCite := regexp.MustCompile(`docs/provider-rules\.md([^)":;\n]*)`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if name == "testdata" || (strings.HasPrefix(name, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, ".md") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for n, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, private) {
				t.Errorf("%s:%d cites %s, a document not in the repository: cite docs/provider-rules.md", rel, n+1, private)
			}
			for _, m := range ruleCite.FindAllStringSubmatch(line, -1) {
				for _, r := range docRefs(m[1]) {
					if !rules[r] {
						t.Errorf("%s:%d cites docs/provider-rules.md %s, which has no such heading", rel, n+1, r)
					}
				}
			}
			if strings.HasPrefix(rel, "docs"+string(filepath.Separator)) {
				continue
			}
			for _, m := range seed.FindAllStringSubmatchIndex(line, -1) {
				num := line[m[2]:m[3]]
				if !strings.Contains(model, "\n## Seed "+num+" ") {
					t.Errorf("%s:%d cites seed %s, which docs/reference-model.md has no section for", rel, n+1, num)
				}
				if !strings.HasSuffix(line[:m[0]], "docs/reference-model.md, ") && !strings.Contains(line, "reference-model.md") {
					t.Errorf("%s:%d cites seed %s without naming docs/reference-model.md", rel, n+1, num)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
