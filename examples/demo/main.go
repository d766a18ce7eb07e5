// Command demo runs llmtck's whole pipeline offline, with one line per
// step: the simulated provider, the recording proxy in front of it, the
// reference engine playing a scenario through the proxy, the cassette it
// wrote, and the check report on that cassette.
//
//	go run ./examples/demo [-scenario anthropic/thinking-tool-loop] [-dir DIR]
//
// It exits 0 when the pipeline is clean, 1 when anything failed.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
)

func main() {
	name := flag.String("scenario", "anthropic/thinking-tool-loop", "the scenario to play (llmtck scenarios list)")
	dir := flag.String("dir", "", "where to write the cassette (default: a new temporary folder, kept)")
	flag.Parse()
	if *dir == "" {
		d, err := os.MkdirTemp("", "llmtck-demo-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "demo:", err)
			os.Exit(1)
		}
		*dir = d
	}
	if err := run(context.Background(), os.Stdout, *name, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}
