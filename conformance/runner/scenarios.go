package runner

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/llmtck/llmtck/conformance/explore"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/fixtures"
)

// Scenario is one scenario to play: its name, its file's bytes and, for a
// file of the user's, where it came from.
type Scenario struct {
	Name string // "<provider>/<what>"
	Path string // the file it was read from; "" for a bundled one
	Data []byte // the scenario file
	sc   *scenario.Scenario
}

// Bundled is every scenario shipped with llmtck, in name order.
func Bundled() ([]Scenario, error) {
	var out []Scenario
	for _, name := range scenario.Names() {
		data, err := fixtures.Scenarios.ReadFile("scenarios/" + name + ".json")
		if err != nil {
			return nil, err
		}
		sc, err := scenario.Parse(name, data)
		if err != nil {
			return nil, err
		}
		out = append(out, Scenario{Name: name, Data: data, sc: sc})
	}
	return out, nil
}

// FromGlob reads the scenario files glob matches. A file is named by its
// directory and base name, "<provider>/<what>", as bundled ones are; a
// pattern that matches no file is an error.
func FromGlob(glob string) ([]Scenario, error) {
	paths, err := filepath.Glob(glob)
	if err != nil {
		return nil, fmt.Errorf("--scenarios %q: %w", glob, err)
	}
	var files []string
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			more, _ := filepath.Glob(filepath.Join(p, "*", "*.json"))
			files = append(files, more...)
			continue
		}
		files = append(files, p)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("--scenarios %q matches no scenario file", glob)
	}
	sort.Strings(files)
	var out []Scenario
	for _, p := range files {
		s, err := ReadFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// ReadFile reads one scenario file, named "<dir>/<base>" after its path.
func ReadFile(path string) (Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Scenario{}, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Scenario{}, err
	}
	name := filepath.Base(filepath.Dir(abs)) + "/" + strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs))
	sc, err := scenario.Parse(name, data)
	if err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", path, err)
	}
	return Scenario{Name: name, Path: abs, Data: data, sc: sc}, nil
}

// Parsed is the scenario parsed; nil for a Scenario not made by this
// package's readers.
func (s Scenario) Parsed() *scenario.Scenario { return s.sc }

// Shard keeps the scenarios of shard k (1-based) of n: each scenario goes
// to the shard its name hashes to, so a CI matrix of n machines plays every
// scenario once, and adding a scenario moves no other.
func Shard(all []Scenario, k, n int) ([]Scenario, error) {
	if n < 1 || k < 1 || k > n {
		return nil, fmt.Errorf("--shard %d/%d: want K/N with 1 ≤ K ≤ N", k, n)
	}
	var out []Scenario
	for _, s := range all {
		if shardOf(s.Name, n) == k {
			out = append(out, s)
		}
	}
	return out, nil
}

// shardOf is the 1-based shard of n a name belongs to.
func shardOf(name string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32()%uint32(n)) + 1
}

// ParseShard reads "K/N".
func ParseShard(s string) (k, n int, err error) {
	if _, err := fmt.Sscanf(s, "%d/%d", &k, &n); err != nil || fmt.Sprintf("%d/%d", k, n) != s {
		return 0, 0, fmt.Errorf("--shard %q: want K/N, such as 1/4", s)
	}
	if n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("--shard %s: want 1 ≤ K ≤ N", s)
	}
	return k, n, nil
}

// Dedup drops later scenarios with a name already seen: a name is played
// once, the first source that gives it wins.
func Dedup(all []Scenario) []Scenario {
	seen := map[string]bool{}
	var out []Scenario
	for _, s := range all {
		if !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s)
		}
	}
	return out
}

// Explore returns n generated scenarios per wire, from seed on (seed,
// seed+1, …), with every feature and fault the generator draws: what
// conformance.Explore plays for a Go harness. Each is named after its wire
// and seed, so a failure names the seed that replays it
// (`llmtck scenarios generate --wire W --seed N`).
func Explore(n int, seed int64) ([]Scenario, error) {
	var out []Scenario
	for _, w := range explore.Wires {
		for i := range n {
			f, err := explore.Generate(w, uint64(seed)+uint64(i), explore.Options{})
			if err != nil {
				return nil, err
			}
			data := f.JSON()
			sc, err := scenario.Parse(f.Name, data)
			if err != nil {
				return nil, fmt.Errorf("generated scenario %s: %w", f.Name, err)
			}
			out = append(out, Scenario{Name: f.Name, Data: data, sc: sc})
		}
	}
	return out, nil
}
