package main

import (
	"runtime/debug"
	"strings"
)

// version is what `llmtck --version` prints: the module version `go
// install …@vX` built, or "(devel)" for a build from a checkout, with the
// commit, its time and the Go version the binary records. A checkout built
// with -buildvcs=false records no commit, and the line says so.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var extra []string
	var rev, modified, at string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		case "vcs.time":
			at = s.Value
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if modified == "true" {
			rev += "+dirty"
		}
		extra = append(extra, "commit "+rev)
		if at != "" {
			extra = append(extra, at)
		}
	} else if info.Main.Version == "(devel)" || info.Main.Version == "" {
		extra = append(extra, "no commit recorded: built with -buildvcs=false")
	}
	extra = append(extra, info.GoVersion)
	return v + " (" + strings.Join(extra, ", ") + ")"
}
