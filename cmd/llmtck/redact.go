package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/internal/redact"
)

func newRedactCmd() *cobra.Command {
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "redact [--dry-run] CASSETTE|FOLDER...",
		Short: "Scrub credentials from existing cassettes in place",
		Long: `redact masks credentials in go-vcr cassettes (v2 and v4 layouts) as the recorder
does before it writes: the values of credential headers (authorization, x-api-key, api-key,
x-goog-api-key, cookies, AWS session tokens…) and query parameters (key, api_key,
access_token, X-Amz-*) become REDACTED, and every value shaped like an API key, access token
or JWT in a URL, a header or a body becomes REDACTED padded with X to its length. Each file is
rewritten atomically in its own layout, so go-vcr still loads it. Revoke a key that was found:
it has been on disk. Other tools' recordings are scrubbed by llmtck import as it converts them.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr("redact: no CASSETTE given")
			}
			files, err := report.Files(args)
			if err != nil {
				return usageErr("redact: %v", err)
			}
			failed := 0
			for _, path := range files {
				n, err := redactFile(path, dryRun)
				switch {
				case err != nil:
					fmt.Fprintf(cmd.ErrOrStderr(), "%s: %v\n", path, err)
					failed++
				case n == 0:
					fmt.Fprintf(cmd.OutOrStdout(), "%s: clean\n", path)
				case dryRun:
					fmt.Fprintf(cmd.OutOrStdout(), "%s: %s would be masked\n", path, count(n, "value"))
				default:
					fmt.Fprintf(cmd.OutOrStdout(), "%s: %s masked\n", path, count(n, "value"))
				}
			}
			if failed > 0 {
				return &exitError{code: 2, err: fmt.Errorf("redact: %d of %s not scrubbed", failed, count(len(files), "file"))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&dryRun, "dry-run", "n", false, "count what would be masked; write nothing")
	return cmd
}

// redactFile scrubs one cassette and rewrites it in its own layout unless
// dryRun; it returns how many values were masked.
func redactFile(path string, dryRun bool) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return 0, fmt.Errorf("gzip-compressed: decompress it first (redact rewrites plain go-vcr cassettes)")
	}
	c, err := cassette.Parse(path, data)
	if err != nil {
		return 0, err
	}
	save := cassette.Save
	switch c.Format {
	case cassette.FormatGoVCRv1:
	case cassette.FormatGoVCRv2:
		save = cassette.SaveV4
	default:
		return 0, fmt.Errorf("a %s recording: redact rewrites go-vcr cassettes only; llmtck import converts it to one and scrubs it", c.Format)
	}
	n := scrubCassette(c)
	if n == 0 || dryRun {
		return n, nil
	}
	return n, save(path, c)
}

// scrubCassette masks c's credentials in place as the recorder would have
// (redact.Policy.Call on every interaction) and counts them.
func scrubCassette(c *cassette.Cassette) int {
	p, n := redact.Default(), 0
	for _, in := range c.Interactions {
		n += p.Call(&in.Request.URL, in.Request.Header, &in.Request.Body, in.Response.Header, &in.Response.Body)
	}
	return n
}
