package main

import "github.com/spf13/cobra"

// addServerCommands registers the server verbs (record, proxy, replay).
func addServerCommands(root *cobra.Command) {
	root.AddCommand(newRecordCmd(), newProxyCmd(), newReplayCmd())
}
