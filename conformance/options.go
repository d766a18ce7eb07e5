package conformance

import (
	"fmt"

	"github.com/llmtck/llmtck/engine"
)

// Option configures CheckCassette, Golden and Run.
type Option interface{ apply(*config) }

type config struct {
	only, skip []string
	wire       engine.Wire
	gaps       map[string]string // check ID → reason
	goldenFile string
	caps       map[string]bool // Capabilities; nil means everything
	scenarios  []string        // Scenarios globs
	errs       []error
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// Gap declares a known gap: the check still runs, its findings are logged
// instead of failing the test, and the test fails if the check passes (the
// gap is stale and the declaration should go). An unknown ID fails the test.
func Gap(checkID, reason string) Option {
	return optionFunc(func(c *config) {
		if Lookup(checkID) == nil {
			c.errs = append(c.errs, fmt.Errorf("conformance.Gap(%q): no such check", checkID))
			return
		}
		if c.gaps == nil {
			c.gaps = map[string]string{}
		}
		c.gaps[checkID] = reason
	})
}

// Only restricts the run to checks whose ID matches one of the globs.
func Only(globs ...string) Option {
	return optionFunc(func(c *config) { c.only = append(c.only, globs...) })
}

// Skip leaves out checks whose ID matches one of the globs.
func Skip(globs ...string) Option {
	return optionFunc(func(c *config) { c.skip = append(c.skip, globs...) })
}

// ForceWire decodes every call as the given wire instead of detecting it.
func ForceWire(w engine.Wire) Option {
	return optionFunc(func(c *config) { c.wire = w })
}

// GoldenFile names the golden file of Golden, relative to testdata/;
// by default it is the test's name with a .golden ending.
func GoldenFile(name string) Option {
	return optionFunc(func(c *config) { c.goldenFile = name })
}

func newConfig(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		o.apply(c)
	}
	return c
}
