package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/llmtck/llmtck/conformance/check"
)

// informationURI is where a SARIF viewer links the tool.
const informationURI = "https://github.com/llmtck/llmtck"

// WriteSARIF writes the report as SARIF 2.1.0, as code-scanning services
// read it: one rule per check of the catalogue given (its title, law and
// Troubleshoot text as help), one result per finding with the cassette as
// the artifact and the interaction and JSON path as its logical location,
// and a file that cannot be read as a tool notification.
func (r *Report) WriteSARIF(w io.Writer, catalogue []*check.Check) error {
	rep, err := sarif.New(sarif.Version210)
	if err != nil {
		return err
	}
	run := sarif.NewRunWithInformationURI("llmtck", informationURI)
	v := toolVersion()
	run.Tool.Driver.Version = &v
	// Relative paths are URI references below the folder check ran in,
	// which a viewer knows as the source root.
	root := sarif.NewArtifactLocation().WithDescription(sarif.NewMessage().WithText("the folder llmtck check ran in"))
	if wd, err := os.Getwd(); err == nil {
		root.WithUri(fileURI(wd) + "/")
	}
	run.OriginalUriBaseIDs = map[string]*sarif.ArtifactLocation{srcRoot: root}
	index := map[string]int{}
	for i, c := range catalogue {
		index[c.ID] = i
		rule := run.AddRule(c.ID).
			WithName(c.Title).
			WithShortDescription(sarif.NewMultiformatMessageString(c.Title)).
			WithFullDescription(sarif.NewMultiformatMessageString(c.Law)).
			WithTextHelp(ruleHelp(c)).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(c.Severity)))
		props := sarif.Properties{"scope": c.Scope}
		if c.Wire != "" {
			props["wire"] = string(c.Wire)
		}
		if c.ProviderError != "" {
			props["providerError"] = c.ProviderError
		}
		rule.WithProperties(props)
	}
	inv := run.AddInvocation(!r.Unreadable())
	for _, f := range r.Files {
		uri, base := artifactURI(f.Path)
		art := run.AddDistinctArtifact(uri)
		if base != "" {
			art.Location.WithUriBaseId(base)
		}
		if f.Error != "" {
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, &sarif.Notification{
				Level:     "error",
				Message:   sarif.NewTextMessage(f.Error),
				Locations: []*sarif.Location{artifactAt(uri, base)},
			})
			continue
		}
		for _, fd := range f.Findings {
			text := fd.Message
			if fd.Diff != "" {
				text += "\n" + fd.Diff
			}
			res := run.CreateResultForRule(fd.Check).
				WithLevel(sarifLevel(fd.Severity)).
				WithMessage(sarif.NewTextMessage(text))
			if i, ok := index[fd.Check]; ok {
				res.WithRuleIndex(i)
			}
			loc := artifactAt(uri, base)
			name := fmt.Sprintf("interaction[%d]", fd.Interaction)
			if fd.Location != "" {
				name += "." + fd.Location
			}
			loc.AddLogicalLocations(sarif.NewLogicalLocation().WithFullyQualifiedName(name).WithKind("member"))
			res.AddLocation(loc)
			res.Properties = sarif.Properties{"interaction": fd.Interaction, "jsonPath": fd.Location}
		}
	}
	rep.AddRun(run)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

func artifactAt(uri, base string) *sarif.Location {
	al := sarif.NewArtifactLocation().WithUri(uri)
	if base != "" {
		al.WithUriBaseId(base)
	}
	return sarif.NewLocationWithPhysicalLocation(sarif.NewPhysicalLocation().WithArtifactLocation(al))
}

// srcRoot is the base id of relative artifact URIs: the source root, as
// code-scanning services name it.
const srcRoot = "%SRCROOT%"

// artifactURI is the SARIF artifactLocation of a file as check named it: a
// relative path becomes a URI reference below srcRoot, an absolute one a
// file: URI, each with the characters a URI reserves percent-encoded
// (spaces, #, %, [ …), so that a file name is never read as a fragment or
// a query.
func artifactURI(path string) (uri, base string) {
	if filepath.IsAbs(path) {
		return fileURI(path), ""
	}
	return (&url.URL{Path: filepath.ToSlash(path)}).EscapedPath(), srcRoot
}

// fileURI is the file: URI of an absolute path.
func fileURI(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/…
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// toolVersion is the version the binary was built as, "(devel)" from a
// checkout.
func toolVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// ruleHelp is a check's help text: its law, what the provider answers,
// and how to fix it.
func ruleHelp(c *check.Check) string {
	help := c.Law
	if c.ProviderError != "" {
		help += "\n\nThe provider answers: " + c.ProviderError
	}
	if c.Troubleshoot != "" {
		help += "\n\n" + c.Troubleshoot
	}
	return help
}

// sarifLevel maps a severity onto SARIF's levels.
func sarifLevel(s check.Severity) string {
	switch s {
	case check.SeverityError:
		return "error"
	case check.SeverityWarning:
		return "warning"
	}
	return "note"
}
