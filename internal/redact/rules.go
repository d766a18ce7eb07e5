package redact

import (
	"bytes"
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	toml "github.com/pelletier/go-toml/v2"
)

// gitleaksRules is gitleaks' default rule set (v8.30.1, MIT; its licence is
// gitleaks/LICENSE beside it): a few hundred credential formats, each with
// the keywords that must occur near one and the allowlists its authors keep
// against false alarms.
//
//go:embed gitleaks/gitleaks.toml
var gitleaksRules []byte

// A rule is one of gitleaks' rules, compiled.
type rule struct {
	id          string
	re          *regexp.Regexp
	secretGroup int
	entropy     float64
	allow       []allowlist
	reach       int // how far past a keyword a match may end
	// assign is set for rules of the form name, operator, value (the
	// generic key and most vendor rules): a keyword is worth a regex run
	// only when an operator and at least minValue value bytes follow it.
	assign   bool
	minValue int
	// spaced is set for the rules whose keyword is not part of the
	// secret's run of bytes (curl's options, a PEM's BEGIN line).
	spaced bool
}

// secretRun is the span of the run of bytes a secret is made of
// (base64, base64url, dots, tildes) that holds data[from:to]: a short
// keyword is part of its secret in every rule that has one, and every
// secret is longer than its keyword by 8 or more.
func secretRun(data []byte, from, to int) (int, int) {
	in := func(c byte) bool { return tokenByte(c) || c == '+' || c == '/' || c == '=' || c == '.' || c == '~' }
	hit := from
	for from > 0 && in(data[from-1]) && hit-from <= 2048 {
		from--
	}
	for to < len(data) && in(data[to]) && to-from <= 4096 {
		to++
	}
	return from, to
}

// assignOps is the operator group of gitleaks' name = value rules.
const assignOps = `(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`

// assignmentAfter reports whether data at i, right after a keyword,
// can continue as gitleaks' name = value rules require: up to 20 name
// bytes and 3 quotes or spaces, an operator, up to 5 quotes, spaces or
// '=', then at least n value bytes. It is a necessary condition only.
func assignmentAfter(data []byte, i, n int) bool {
	end := min(len(data), i+24)
	for ; i < end; i++ {
		c := data[i]
		if strings.IndexByte("=>:|?,", c) >= 0 {
			break
		}
		if !(tokenByte(c) || c == '.' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\'' || c == '"') {
			return false
		}
	}
	if i >= end {
		return false
	}
	for k := 0; i < len(data) && k < 8 && strings.IndexByte("=>:|?,`'\" \t\n\r", data[i]) >= 0; k++ {
		i++
	}
	v := i
	for v < len(data) && v-i < n && (tokenByte(data[v]) || strings.IndexByte(".=+/", data[v]) >= 0) {
		v++
	}
	return v-i >= n
}

// An allowlist rules a finding out when its secret (or the match) matches
// one of its regexes or holds one of its stopwords.
type allowlist struct {
	match     bool // test the whole match rather than the secret
	regexes   []*regexp.Regexp
	stopwords []string
}

type tomlAllowlist struct {
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`
}

type tomlConfig struct {
	Allowlist tomlAllowlist `toml:"allowlist"`
	Rules     []struct {
		ID          string          `toml:"id"`
		Regex       string          `toml:"regex"`
		SecretGroup int             `toml:"secretGroup"`
		Entropy     float64         `toml:"entropy"`
		Keywords    []string        `toml:"keywords"`
		Allowlists  []tomlAllowlist `toml:"allowlists"`
	} `toml:"rules"`
}

// ruleSet is the compiled rule set with the keyword automaton that picks
// which rules to run where.
type ruleSet struct {
	rules    []rule
	global   []allowlist
	keywords *ahocorasick.Trie
	byWord   [][]int // keyword index → rules that name it
	always   []int   // rules without keywords: run on every value
}

var (
	rulesOnce sync.Once
	rulesLoad *ruleSet
)

// fullRules compiles the rule set once, on first use.
func fullRules() *ruleSet {
	rulesOnce.Do(func() {
		rs, err := compileRules(gitleaksRules)
		if err != nil {
			panic("redact: the embedded gitleaks rules: " + err.Error())
		}
		rulesLoad = rs
	})
	return rulesLoad
}

func compileAllowlist(a tomlAllowlist) (allowlist, bool, error) {
	// A list that needs a path or a commit never applies to a value.
	if strings.EqualFold(a.Condition, "AND") && (len(a.Paths) > 0 || len(a.Commits) > 0) {
		return allowlist{}, false, nil
	}
	if len(a.Regexes) == 0 && len(a.StopWords) == 0 {
		return allowlist{}, false, nil
	}
	out := allowlist{match: a.RegexTarget == "match" || a.RegexTarget == "line"}
	for _, r := range a.Regexes {
		re, err := regexp.Compile(r)
		if err != nil {
			return out, false, err
		}
		out.regexes = append(out.regexes, re)
	}
	for _, w := range a.StopWords {
		out.stopwords = append(out.stopwords, strings.ToLower(w))
	}
	return out, true, nil
}

func compileRules(src []byte) (*ruleSet, error) {
	var cfg tomlConfig
	if err := toml.Unmarshal(src, &cfg); err != nil {
		return nil, err
	}
	rs := &ruleSet{}
	if a, ok, err := compileAllowlist(cfg.Allowlist); err != nil {
		return nil, fmt.Errorf("global allowlist: %w", err)
	} else if ok {
		rs.global = append(rs.global, a)
	}
	word := map[string]int{}
	var words []string
	for _, tr := range cfg.Rules {
		if tr.Regex == "" {
			continue // a rule on file paths only
		}
		re, err := regexp.Compile(tr.Regex)
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", tr.ID, err)
		}
		r := rule{id: tr.ID, re: re, secretGroup: tr.SecretGroup, entropy: tr.Entropy, reach: 320,
			assign: strings.Contains(tr.Regex, assignOps), minValue: 1}
		r.spaced = strings.HasPrefix(tr.ID, "curl-") || strings.Contains(tr.Regex, "PRIVATE KEY")
		if tr.ID == "generic-api-key" {
			r.minValue = 10 // its value is {10,150}, or 12 or more of base64
		}
		switch {
		case strings.Contains(tr.Regex, "PRIVATE KEY"):
			r.reach = maxPEM
		case strings.HasPrefix(tr.ID, "jwt"):
			r.reach = maxToken
		}
		for _, a := range tr.Allowlists {
			al, ok, err := compileAllowlist(a)
			if err != nil {
				return nil, fmt.Errorf("rule %s allowlist: %w", tr.ID, err)
			}
			if ok {
				r.allow = append(r.allow, al)
			}
		}
		i := len(rs.rules)
		rs.rules = append(rs.rules, r)
		if len(tr.Keywords) == 0 {
			rs.always = append(rs.always, i)
			continue
		}
		for _, k := range tr.Keywords {
			k = strings.ToLower(k)
			w, ok := word[k]
			if !ok {
				w = len(words)
				word[k] = w
				words = append(words, k)
				rs.byWord = append(rs.byWord, nil)
			}
			rs.byWord[w] = append(rs.byWord[w], i)
		}
	}
	rs.keywords = ahocorasick.NewTrieBuilder().AddStrings(words).Build()
	return rs, nil
}

// pagination names the cursors APIs hand back (Google's next_page_token
// holds base64 of JSON): data, not a credential, though gitleaks' generic
// rule sees a token.
var pagination = regexp.MustCompile(`(?i)(?:page|next|continuation)[_-]?token|cursor`)

// maxPEM bounds the length of a PEM private-key block searched for past
// its BEGIN line (an RSA 4096 key, JSON-escaped, is about 3.4 KB).
const maxPEM = 16 << 10

// reachBack is how far before a keyword a match may start: gitleaks'
// rules allow 50 name characters and 20 more before the operator.
const reachBack = 160

// A finding is one match of a rule: the secret's span in the value.
type finding struct {
	rule       string
	start, end int
}

var lowerPool = sync.Pool{New: func() any { return new([]byte) }}

// find runs every rule whose keyword occurs in data on the stretch of data
// around each occurrence, and calls yield with each finding that passes the
// rule's entropy and allowlists, earliest first per rule, until yield says
// stop. A value holding none of the keywords (most prose and JSON) costs
// one pass of the keyword automaton.
func (rs *ruleSet) find(data []byte, yield func(finding) bool) {
	bp := lowerPool.Get().(*[]byte)
	lower := lowerASCII(data, (*bp)[:0])
	defer func() { *bp = lower[:0]; lowerPool.Put(bp) }()
	// windows[i] is the stretch of data rule i is run on, merged across
	// its keywords' occurrences.
	type window struct{ from, to int }
	var windows map[int][]window
	rs.keywords.Walk(lower, func(end, n, pattern int64) bool {
		at := int(end - n + 1)
		for _, i := range rs.byWord[pattern] {
			r := &rs.rules[i]
			if r.assign && !assignmentAfter(data, int(end)+1, r.minValue) {
				continue
			}
			if !r.assign && n <= 4 && !r.spaced {
				from, to := secretRun(data, at, int(end)+1)
				if to-from < int(n)+8 || to-from > 1024 && at-from > 8 {
					// "ey" in "they", "sk" in "ask", "s." ending a sentence;
					// or deep in a long run of base64 (a thinking signature),
					// which a key does not start in the middle of.
					continue
				}
			}
			if windows == nil {
				windows = map[int][]window{}
			}
			w := window{max(0, at-reachBack), min(len(data), int(end)+1+rs.rules[i].reach)}
			ws := windows[i]
			if k := len(ws) - 1; k >= 0 && w.from <= ws[k].to {
				ws[k].to = max(ws[k].to, w.to)
			} else {
				ws = append(ws, w)
			}
			windows[i] = ws
		}
		return true
	})
	for _, i := range rs.always {
		if windows == nil {
			windows = map[int][]window{}
		}
		windows[i] = []window{{0, len(data)}}
	}
	for i := range rs.rules { // in rule order, so the first finding is stable
		for _, w := range windows[i] {
			// Widen the window to whole tokens at its edges, so that \b and
			// $ in a rule do not find a key in the middle of a longer one.
			from, to := w.from, w.to
			for from > 0 && from > w.from-64 && tokenByte(data[from-1]) {
				from--
			}
			for to < len(data) && to < w.to+64 && tokenByte(data[to]) {
				to++
			}
			if !rs.rules[i].run(rs, data, from, to, yield) {
				return
			}
		}
	}
}

// run applies r to data[from:to].
func (r *rule) run(rs *ruleSet, data []byte, from, to int, yield func(finding) bool) bool {
	part := data[from:to]
	// Most windows hold no match: the submatch machine, several times the
	// cost, runs only on the spans that do.
	for _, span := range r.re.FindAllIndex(part, -1) {
		m := r.re.FindSubmatchIndex(part[span[0]:span[1]])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += span[0]
			}
		}
		start, end := m[0], m[1]
		for end > start && part[end-1] == '\n' {
			end--
		}
		// The secret is the chosen group, or the first that matched.
		sStart, sEnd := start, end
		if g := r.secretGroup; g > 0 && 2*g+1 < len(m) && m[2*g] >= 0 {
			sStart, sEnd = m[2*g], m[2*g+1]
		} else if g == 0 {
			for k := 2; k+1 < len(m); k += 2 {
				if m[k] >= 0 && m[k+1] > m[k] {
					sStart, sEnd = m[k], m[k+1]
					break
				}
			}
		}
		secret := part[sStart:sEnd]
		if r.entropy > 0 && entropy(secret) <= r.entropy {
			continue
		}
		if allowed(rs.global, secret, part[start:end]) || allowed(r.allow, secret, part[start:end]) {
			continue
		}
		if Placeholder(string(secret)) || r.id == "generic-api-key" && pagination.Match(part[start:end]) {
			continue
		}
		if !yield(finding{rule: r.id, start: from + sStart, end: from + sEnd}) {
			return false
		}
	}
	return true
}

func allowed(lists []allowlist, secret, match []byte) bool {
	for _, a := range lists {
		target := secret
		if a.match {
			target = match
		}
		for _, re := range a.regexes {
			if re.Match(target) {
				return true
			}
		}
		if len(a.stopwords) > 0 {
			lower := bytes.ToLower(secret)
			for _, w := range a.stopwords {
				if bytes.Contains(lower, []byte(w)) {
					return true
				}
			}
		}
	}
	return false
}

// entropy is the Shannon entropy of b in bits per byte.
func entropy(b []byte) float64 {
	if len(b) == 0 {
		return 0
	}
	var counts [256]int
	for _, c := range b {
		counts[c]++
	}
	e := 0.0
	n := float64(len(b))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			e -= p * math.Log2(p)
		}
	}
	return e
}

// lowerASCII appends data lower-cased (ASCII letters only) to dst.
func lowerASCII(data, dst []byte) []byte {
	dst = append(dst, data...)
	for i, c := range dst {
		if c >= 'A' && c <= 'Z' {
			dst[i] = c + 'a' - 'A'
		}
	}
	return dst
}
