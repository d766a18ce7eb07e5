package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
)

// catalogueEntry is one check as `check --list --format json` prints it.
type catalogueEntry struct {
	ID            string `json:"id"`
	Title         string `json:"title"`
	Severity      string `json:"severity"`
	Scope         string `json:"scope"`
	Wire          string `json:"wire,omitempty"`
	Law           string `json:"law"`
	ProviderError string `json:"provider_error,omitempty"`
	Troubleshoot  string `json:"troubleshoot"`
	Since         string `json:"since"`
	// Evidence backs an error-level check: the endpoints its refusal is
	// observed on (an error there, a warning elsewhere) and the sources.
	Evidence *check.Evidence `json:"evidence,omitempty"`
}

// writeCatalogue prints the registry: a table in text, or a JSON array.
func writeCatalogue(w io.Writer, format string) error {
	all := checks.All()
	if format == "json" {
		entries := make([]catalogueEntry, 0, len(all))
		for _, c := range all {
			e := catalogueEntry{c.ID, c.Title, string(c.Severity), c.Scope, string(c.Wire), c.Law, c.ProviderError, c.Troubleshoot, c.Since, nil}
			if len(c.Evidence.Sources) > 0 {
				e.Evidence = &c.Evidence
			}
			entries = append(entries, e)
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(entries)
	}
	var b strings.Builder
	for _, c := range all {
		fmt.Fprintf(&b, "%-16s %-8s %-6s %s\n", c.ID, c.Severity, c.Scope, c.Title)
		fmt.Fprintf(&b, "    %s\n", c.Law)
		if c.ProviderError != "" {
			fmt.Fprintf(&b, "    provider says: %s\n", c.ProviderError)
		}
	}
	fmt.Fprintf(&b, "%d checks\n", len(all))
	_, err := io.WriteString(w, b.String())
	return err
}
