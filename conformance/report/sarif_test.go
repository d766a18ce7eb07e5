package report

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/llmtck/llmtck/conformance/check"
)

// oddNames are file names whose characters a URI reserves or forbids.
var oddNames = []string{"plain.yaml", "with space.yaml", "a#b.yaml", "100%.yaml", "[v1].yaml", "dir one/q?x.yaml", "ünï.yaml", "-"}

// The SARIF log of files with odd names is valid SARIF 2.1.0 (the OASIS
// schema, URI formats asserted), every artifact URI is a URI reference
// that names the file back, and the driver says its version.
func TestSARIFValidatesAgainstTheSchema(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	abs := t.TempDir()
	r := &Report{}
	var paths []string
	for _, name := range oddNames {
		paths = append(paths, name)
		if name != "-" {
			paths = append(paths, filepath.Join(abs, name))
		}
	}
	for i, p := range paths {
		fr := FileReport{Path: p, Provider: "anthropic", Interactions: 1, Statuses: []int{200},
			Findings: []check.Finding{{Check: "ANT-TOOL-001", Severity: check.SeverityError, Location: "request.messages[1]", Message: "m"}}}
		if i%3 == 2 {
			fr = FileReport{Path: p, Error: "unreadable"}
		}
		r.Add(fr)
	}
	var buf bytes.Buffer
	if err := r.WriteSARIF(&buf, []*check.Check{{ID: "ANT-TOOL-001", Title: "t", Severity: check.SeverityError, Law: "l"}}); err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(v); err != nil {
		t.Fatalf("the SARIF log is not valid SARIF 2.1.0: %v\n%s", err, buf.String())
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Version string } `json:"driver"`
			} `json:"tool"`
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Artifacts          []struct {
				Location struct {
					URI       string `json:"uri"`
					URIBaseID string `json:"uriBaseId"`
				} `json:"location"`
			} `json:"artifacts"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if run.Tool.Driver.Version == "" {
		t.Error("the driver has no version")
	}
	root, err := url.Parse(run.OriginalURIBaseIDs[srcRoot].URI)
	if err != nil || root.Scheme != "file" || !strings.HasSuffix(root.Path, "/") {
		t.Errorf("%s = %q: want the file: URI of a folder", srcRoot, run.OriginalURIBaseIDs[srcRoot].URI)
	}
	if len(run.Artifacts) != len(paths) {
		t.Fatalf("%d artifacts for %d files", len(run.Artifacts), len(paths))
	}
	for i, a := range run.Artifacts {
		u, err := url.Parse(a.Location.URI)
		if err != nil || u.RawQuery != "" || u.Fragment != "" {
			t.Errorf("%q: artifact URI %q is not a plain URI reference (%v)", paths[i], a.Location.URI, err)
			continue
		}
		want, got := filepath.ToSlash(paths[i]), u.Path
		if filepath.IsAbs(paths[i]) {
			if u.Scheme != "file" || a.Location.URIBaseID != "" {
				t.Errorf("%q: absolute path as %q (base %q), want a file: URI", paths[i], a.Location.URI, a.Location.URIBaseID)
			}
		} else if a.Location.URIBaseID != srcRoot {
			t.Errorf("%q: relative path without the %s base", paths[i], srcRoot)
		}
		if got != want {
			t.Errorf("artifact URI %q names %q, want %q", a.Location.URI, got, want)
		}
	}
}
