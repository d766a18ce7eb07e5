package engine

import (
	"encoding/json"
	"os"
	"testing"
)

// minimatchCase is one row of testdata/minimatch.json, written by
// scripts/minimatch-table.js from minimatch itself.
type minimatchCase struct {
	Pattern   string `json:"pattern"`
	Value     string `json:"value"`
	Minimatch bool   `json:"minimatch"` // minimatch on the raw value
	Want      bool   `json:"want"`      // minimatch on the cleaned value; false when it climbs out
}

// The gate's globs match as minimatch does, on cleaned values.
func TestGlobMatchesMinimatch(t *testing.T) {
	data, err := os.ReadFile("testdata/minimatch.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []minimatchCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("%d cases, want at least 40", len(cases))
	}
	for _, c := range cases {
		g, err := compileGlob(c.Pattern)
		if err != nil {
			t.Errorf("%q: %v", c.Pattern, err)
			continue
		}
		if got := g.match(c.Value); got != c.Want {
			t.Errorf("%q matches %q: %t, minimatch on the cleaned value says %t (on the raw value %t)", c.Pattern, c.Value, got, c.Want, c.Minimatch)
		}
	}
}

func TestGlobRefusesNUL(t *testing.T) {
	g, _ := compileGlob("**")
	if g.match("src/a\x00/../../etc/passwd") {
		t.Error("a value with a NUL byte matched")
	}
}
