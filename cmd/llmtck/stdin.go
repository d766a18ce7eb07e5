package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/report"
)

// stdinPaths returns args with "-" replaced by a temporary file holding
// standard input (the readers take paths), and that file's path, "" when no
// argument is "-". removeStdin removes it again.
func stdinPaths(args []string, stdin io.Reader) (paths []string, fromStdin string, err error) {
	for _, a := range args {
		if a != "-" {
			paths = append(paths, a)
			continue
		}
		if fromStdin != "" {
			return nil, "", fmt.Errorf("- (stdin) given twice")
		}
		data, err := io.ReadAll(io.LimitReader(stdin, cassette.MaxSize+1))
		if err != nil {
			return nil, "", fmt.Errorf("reading stdin: %v", err)
		}
		if len(data) > cassette.MaxSize {
			return nil, "", fmt.Errorf("stdin holds more than the %d MiB limit", cassette.MaxSize>>20)
		}
		dir, err := os.MkdirTemp("", "llmtck-stdin")
		if err != nil {
			return nil, "", err
		}
		// A reader that closes the pipe early (| head) must not kill the
		// process before it removes the file: ignored, SIGPIPE turns the
		// write into an EPIPE error, and the deferred removal runs.
		signal.Ignore(syscall.SIGPIPE)
		fromStdin = filepath.Join(dir, "stdin")
		if err := os.WriteFile(fromStdin, data, 0o600); err != nil {
			os.RemoveAll(dir)
			return nil, "", err
		}
		paths = append(paths, fromStdin)
	}
	return paths, fromStdin, nil
}

// removeStdin removes the temporary file stdinPaths made, if any.
func removeStdin(fromStdin string) {
	if fromStdin != "" {
		os.RemoveAll(filepath.Dir(fromStdin))
	}
}

// nameStdin names the file read from standard input "-" in the report, in
// its path and in its error message, as the user wrote it.
func nameStdin(rep *report.Report, fromStdin string) {
	if rep == nil || fromStdin == "" {
		return
	}
	for i := range rep.Files {
		f := &rep.Files[i]
		if f.Path == fromStdin {
			f.Path = "-"
			f.Error = strings.ReplaceAll(f.Error, fromStdin, "-")
		}
	}
}
