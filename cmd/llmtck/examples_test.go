package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every command's help ends with examples a user can copy, each a real
// invocation of that command.
func TestEveryCommandHasExamples(t *testing.T) {
	root := newRootCmd()
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c != root && c.Name() != "help" && c.Name() != "completion" && c.Parent().Name() != "completion" {
			if c.Example == "" {
				t.Errorf("%q has no Examples section", c.CommandPath())
			} else if !strings.Contains(c.Example, c.CommandPath()) {
				t.Errorf("%q: its examples never run it:\n%s", c.CommandPath(), c.Example)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for path := range examples {
		if c, _, err := root.Find(strings.Fields(path)); err != nil || c.CommandPath() != "llmtck "+path {
			t.Errorf("examples names %q, which is no command", path)
		}
	}
}

// A flag's usage text with backquotes makes pflag print the quoted words
// as the value's placeholder ("--to version: 1"): placeholders are words.
func TestFlagPlaceholdersAreWords(t *testing.T) {
	root := newRootCmd()
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if strings.Contains(f.Usage, "`") {
				t.Errorf("%s --%s: its usage quotes with backquotes, which pflag takes for the placeholder: %q", c.CommandPath(), f.Name, f.Usage)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// The catalogue prints as text or JSON; another report format is refused,
// not printed as text under a format's name.
func TestListRefusesReportFormats(t *testing.T) {
	for _, format := range []string{"sarif", "junit", "github", "html"} {
		code, out, errOut := runCLI(t, "check", "--list", "--format", format)
		if code != 2 || out != "" || !strings.Contains(errOut, "text or json") {
			t.Errorf("check --list --format %s = %d, %q, %q; want exit 2 saying text or json", format, code, out, errOut)
		}
	}
	if code, out, _ := runCLI(t, "check", "--list", "--format", "json"); code != 0 || !strings.HasPrefix(out, "[") {
		t.Errorf("check --list --format json = %d, %.40q", code, out)
	}
	if code, _, errOut := runCLI(t, "check", "--skip", "ANT-NOPE-001", "x.yaml"); code != 2 || !strings.Contains(errOut, "ANT-NOPE-001") {
		t.Errorf("check --skip ANT-NOPE-001 = %d, %q; want exit 2 naming the ID", code, errOut)
	}
}

// Shell completion offers proxy's modes and the catalogue's check IDs
// where a flag or an argument takes them.
func TestCompletionOffersModesAndCheckIDs(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "proxy", "--mode", ""}, "passthrough"},
		{[]string{"__complete", "check", "--skip", "ANT-THINK"}, "ANT-THINK-001"},
		{[]string{"__complete", "check", "--only", ""}, "XP-SECRET-001"},
		{[]string{"__complete", "explain", ""}, "OAI-RSN-003"},
	} {
		code, out, errOut := runCLI(t, c.args...)
		if code != 0 || !strings.Contains(out, c.want+"\n") {
			t.Errorf("llmtck %v offers:\n%s%s; want %s", c.args, out, errOut, c.want)
		}
	}
}
