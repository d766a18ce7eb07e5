package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/llmtck/llmtck/conformance/check"
)

// Report is the result of checking files: the JSON report of
// `llmtck check --format json`, version 1.
type Report struct {
	Version int          `json:"version"`
	Files   []FileReport `json:"files"`
	Summary Summary      `json:"summary"`
}

// FileReport is one checked file.
type FileReport struct {
	Path     string `json:"path"`
	Provider string `json:"provider"`
	// Dialect names who served the calls when it is not the providers. own
	// API (bedrock, vertex, azure, openrouter, deepseek … or unknown when the
	// recording names no host), joined by commas when several did.
	Dialect      string `json:"dialect,omitempty"`
	Interactions int    `json:"interactions"`
	// Note says why no check applied to a file that was read (a wire the
	// catalogue has no rules for, such as Ollama's native API).
	Note string `json:"note,omitempty"`
	// Error is set when the file could not be decoded at all.
	Error string `json:"error"`
	// Statuses holds each interaction's HTTP status, in order, so a reader
	// can tell traffic the provider accepted from traffic it rejected.
	Statuses []int           `json:"statuses"`
	Findings []check.Finding `json:"findings"`
	// Checked lists the IDs of the checks that applied to the file, for
	// per-check reports (JUnit); not part of the JSON report.
	Checked []string `json:"-"`
	// Elapsed is how long reading and judging the file took, and Took how
	// long each check took (JUnit time attributes).
	Elapsed time.Duration            `json:"-"`
	Took    map[string]time.Duration `json:"-"`
}

// Summary counts over all files.
type Summary struct {
	Files        int `json:"files"`
	Interactions int `json:"interactions"`
	Errors       int `json:"errors"`
	Warnings     int `json:"warnings"`
	Info         int `json:"info"`
	// Unreadable counts the files that could not be decoded at all.
	Unreadable int `json:"unreadable"`
}

// Add appends a file report and updates the summary.
func (r *Report) Add(f FileReport) {
	if f.Statuses == nil {
		f.Statuses = []int{}
	}
	if f.Findings == nil {
		f.Findings = []check.Finding{}
	}
	r.Version = 1
	r.Files = append(r.Files, f)
	r.Summary.Files++
	r.Summary.Interactions += f.Interactions
	if f.Error != "" {
		r.Summary.Unreadable++
	}
	for _, fd := range f.Findings {
		switch fd.Severity {
		case check.SeverityError:
			r.Summary.Errors++
		case check.SeverityWarning:
			r.Summary.Warnings++
		default:
			r.Summary.Info++
		}
	}
}

// Unreadable reports whether some file could not be decoded at all.
func (r *Report) Unreadable() bool {
	for _, f := range r.Files {
		if f.Error != "" {
			return true
		}
	}
	return false
}

// WriteJSON writes the report as indented JSON with HTML escaping off.
func (r *Report) WriteJSON(w io.Writer) error {
	out := *r
	out.Version = 1
	if out.Files == nil {
		out.Files = []FileReport{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteText writes the human report: per file a header line with the
// provider and the counts of interactions by HTTP status, then one line per
// finding (diffs indented below it), then a summary line.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Files {
		if f.Error != "" {
			fmt.Fprintf(&b, "%s: error: %s\n", f.Path, f.Error)
			continue
		}
		provider := f.Provider
		if f.Dialect != "" {
			provider += " (" + f.Dialect + ")"
		}
		fmt.Fprintf(&b, "%s  %s  %s  %s\n", f.Path, provider, plural(f.Interactions, "interaction"), statusCounts(f.Statuses))
		if f.Note != "" {
			fmt.Fprintf(&b, "  note: %s\n", f.Note)
		}
		for _, fd := range f.Findings {
			fmt.Fprintf(&b, "  %s\n", fd)
			if fd.Diff != "" {
				for _, line := range strings.Split(strings.TrimRight(fd.Diff, "\n"), "\n") {
					fmt.Fprintf(&b, "      %s\n", line)
				}
			}
		}
	}
	b.WriteString(r.summaryLine())
	_, err := io.WriteString(w, b.String())
	return err
}

// SummaryLine is the report's last text line, as WriteText ends it.
func (r *Report) SummaryLine() string { return r.summaryLine() }

// summaryLine is the last line of the text report: "3 files, 1 interaction:
// 1 error, 0 warnings", with the unreadable files when there are any.
func (r *Report) summaryLine() string {
	s := r.Summary
	line := fmt.Sprintf("%s, %s: %s, %s", plural(s.Files, "file"), plural(s.Interactions, "interaction"), plural(s.Errors, "error"), plural(s.Warnings, "warning"))
	if s.Unreadable > 0 {
		line += fmt.Sprintf(", %s", plural(s.Unreadable, "unreadable file"))
	}
	return line + "\n"
}

// plural writes n with the noun, in the plural unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// statusCounts renders statuses as "status 200×3 400×1"; "no status" for
// response-less recordings.
func statusCounts(statuses []int) string {
	counts := map[int]int{}
	for _, s := range statuses {
		counts[s]++
	}
	keys := make([]int, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		label := fmt.Sprint(k)
		if k == 0 {
			label = "none"
		}
		parts = append(parts, fmt.Sprintf("%s×%d", label, counts[k]))
	}
	if len(parts) == 0 {
		return "status none"
	}
	return "status " + strings.Join(parts, " ")
}
