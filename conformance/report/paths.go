package report

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// recordingExts are the file endings a folder walk always checks; other
// files in a walked folder (.txt fixtures among them) are checked only when
// their content is a recording, so licences and manifests beside cassettes
// are not errors.
var recordingExts = map[string]bool{
	".yaml": true, ".yml": true, ".json": true, ".har": true, ".httprr": true,
	".jsonl": true, ".ndjson": true,
}

// CheckPaths judges every recording named by paths (files, or folders walked
// recursively) with checks and returns the report; a non-empty wire forces
// that wire for every call. A folder walk leaves out files and folders whose
// path below the folder, or whose name, matches one of the exclude globs. It fails only on usage errors: a path that does
// not exist, a run that found no recording, or one where none of the checks
// applied to any. Files that cannot be decoded are reported in their
// FileReport.Error and the other files are still checked.
func CheckPaths(paths []string, checks []*check.Check, wire traffic.Wire, exclude ...string) (*Report, error) {
	for _, g := range exclude {
		if _, err := filepath.Match(g, ""); err != nil {
			return nil, fmt.Errorf("bad --exclude pattern %q: %v", g, err)
		}
	}
	files, err := collect(paths, exclude)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no recordings found under %s", strings.Join(paths, ", "))
	}
	rep := &Report{Version: 1}
	checked := false
	for _, f := range files {
		fr := checkFile(f, checks, wire)
		checked = checked || len(fr.Checked) > 0 || fr.Error != ""
		rep.Add(fr)
	}
	if !checked {
		return nil, fmt.Errorf("none of the selected checks applies to the %d recordings found (a filter for another wire?)", len(files))
	}
	return rep, nil
}

// Files expands paths into the recordings they name, in walk order: a file
// as it is, a folder walked as check walks it (recursively, links followed,
// hidden folders and files matching an exclude glob left out, files kept by
// their extension or, with an unusual name, by their content).
func Files(paths []string, exclude ...string) ([]string, error) { return collect(paths, exclude) }

// collect expands paths into the files to check, in walk order.
func collect(paths, exclude []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		w := walker{root: p, exclude: exclude, seen: []os.FileInfo{st}}
		if err := w.dir(p); err != nil {
			return nil, err
		}
		files = append(files, w.files...)
	}
	return files, nil
}

// walker walks a folder in lexical order, following symbolic links to
// files and folders (cassettes are often linked in from a shared folder).
// A folder reached twice, by a link loop or by two links, is walked once.
type walker struct {
	root    string
	exclude []string
	seen    []os.FileInfo // folders walked
	files   []string
}

func (w *walker) dir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if excluded(w.root, path, w.exclude) {
			continue
		}
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			st, err := os.Stat(path)
			if err != nil {
				// A broken link is listed, so the report says it cannot be
				// read instead of the file silently missing.
				w.files = append(w.files, path)
				continue
			}
			mode = st.Mode().Type()
		}
		switch {
		case mode.IsDir():
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			st, err := os.Stat(path)
			if err != nil {
				return err
			}
			if w.walked(st) {
				continue
			}
			w.seen = append(w.seen, st)
			if err := w.dir(path); err != nil {
				return err
			}
		case mode.IsRegular():
			if recordingExts[strings.ToLower(filepath.Ext(strings.TrimSuffix(path, ".gz")))] || looksLikeRecording(path) {
				w.files = append(w.files, path)
			}
		}
	}
	return nil
}

// walked reports whether the folder st was walked already.
func (w *walker) walked(st os.FileInfo) bool {
	for _, s := range w.seen {
		if os.SameFile(s, st) {
			return true
		}
	}
	return false
}

// excluded reports whether path, found walking root, matches one of the
// globs by its path below root or by its name.
func excluded(root, path string, globs []string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		rel = path
	}
	rel = filepath.ToSlash(rel)
	for _, g := range globs {
		if ok, _ := filepath.Match(g, rel); ok {
			return true
		}
		if ok, _ := filepath.Match(g, filepath.Base(path)); ok {
			return true
		}
	}
	return false
}

// looksLikeRecording sniffs the start of a file with an unusual name.
func looksLikeRecording(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := f.Read(head)
	_, err = cassette.Detect(head[:n])
	return err == nil
}

// checkFile loads, decodes and judges one file. It never fails: a file that
// cannot be read or decoded is reported in the FileReport's Error.
func checkFile(path string, checks []*check.Check, wire traffic.Wire) (fr FileReport) {
	start := time.Now()
	fr = FileReport{Path: path}
	defer func() { fr.Elapsed = time.Since(start) }()
	tr, err := LoadTraffic(path, wire)
	if err != nil {
		fr.Error = err.Error()
		return fr
	}
	if tr.Torn > 0 && len(tr.Exchanges) == 0 {
		// Nothing was checked: passing it would pass a broken cassette.
		fr.Error = fmt.Sprintf("%s: its only interaction is cut in the middle (the last %d bytes: a recorder was killed while writing it); no complete interaction is left to check", path, tr.Torn)
		return fr
	}
	fr.Interactions = len(tr.Exchanges)
	fr.Provider = ProviderOf(tr.Exchanges)
	fr.Dialect = DialectOf(tr.Exchanges)
	for _, ex := range tr.Exchanges {
		fr.Statuses = append(fr.Statuses, ex.Status)
	}
	applicable := check.Applicable(tr, checks)
	fr.Took = make(map[string]time.Duration, len(applicable))
	for _, ch := range applicable {
		fr.Checked = append(fr.Checked, ch.ID)
		t0 := time.Now()
		fr.Findings = append(fr.Findings, check.Judge(tr, []*check.Check{ch})...)
		fr.Took[ch.ID] = time.Since(t0)
	}
	check.Sort(fr.Findings)
	if fr.Provider == string(traffic.WireUnknown) && fr.Interactions > 0 {
		fr.Note = noChecksNote(tr.Exchanges)
	}
	if tr.Torn > 0 {
		checked := fmt.Sprintf("the %d complete interactions before it were checked", fr.Interactions)
		if fr.Interactions == 1 {
			checked = "the complete interaction before it was checked"
		}
		torn := fmt.Sprintf("the last %d bytes are an interaction cut in the middle (a recorder was killed while writing it) and were left out; %s (XP-TORN-001)", tr.Torn, checked)
		fr.Note = strings.TrimPrefix(fr.Note+"; "+torn, "; ")
	}
	return fr
}

// noChecksNote says why the calls of a file that was read are judged by
// no wire's rules.
func noChecksNote(exs []traffic.Exchange) string {
	for _, ex := range exs {
		if ex.Dialect == traffic.DialectOllama && ex.Wire == traffic.WireUnknown {
			return "read, but no check applies: Ollama's native API (/api/chat, /api/generate) has no rules in the catalogue; record its OpenAI-compatible /v1 endpoint to have it checked"
		}
	}
	for _, ex := range exs {
		if ex.Dialect == traffic.DialectBedrock && strings.Contains(ex.URL, "/invoke") {
			return "read, but no check applies: Bedrock InvokeModel with a native body other than Anthropic's (Nova, Llama, Titan …) has no rules in the catalogue; Converse calls and Claude's InvokeModel are checked"
		}
	}
	return "read, but no check applies: no call was recognised as provider traffic (anthropic, openai, responses, gemini or bedrock)"
}

// LoadTraffic reads a recording of any known format and decodes every call,
// with the content the recording declares ephemeral (llmtck_ephemeral). A
// non-empty wire forces that wire for every call.
func LoadTraffic(path string, wire traffic.Wire) (*check.Traffic, error) {
	c, err := cassette.Load(path)
	if err != nil {
		return nil, err
	}
	return &check.Traffic{Path: path, Exchanges: providers.DecodeCassette(c, wire), Ephemeral: c.Ephemeral, Torn: c.Torn}, nil
}

// ProviderOf names the file's wire; a cassette mixing wires lists each known
// one in order of first use, joined by commas ("responses,gemini").
func ProviderOf(exs []traffic.Exchange) string {
	var wires []string
	seen := map[traffic.Wire]bool{}
	for _, ex := range exs {
		if ex.Wire == traffic.WireUnknown || seen[ex.Wire] {
			continue
		}
		seen[ex.Wire] = true
		wires = append(wires, string(ex.Wire))
	}
	if len(wires) == 0 {
		return string(traffic.WireUnknown)
	}
	return strings.Join(wires, ",")
}

// DialectOf names who served a file's calls when that is not the providers'
// own API: each dialect once, in order of first use, joined by commas; ""
// when every call went to the provider itself.
func DialectOf(exs []traffic.Exchange) string {
	var out []string
	seen := map[traffic.Dialect]bool{}
	for _, ex := range exs {
		d := ex.Dialect
		if d == "" || d == traffic.DialectDirect || d == traffic.DialectUnknown || seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, string(d))
	}
	return strings.Join(out, ",")
}
