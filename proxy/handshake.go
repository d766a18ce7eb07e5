package proxy

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
)

// handshakeFailed is goproxy's warning when a client breaks off the TLS
// handshake with an intercepted host: "Cannot handshake client HOST ERR".
var handshakeFailed = regexp.MustCompile(`Cannot handshake client (\S+) (.*)`)

// explainHandshakes is goproxy's log writer: it passes every line on, and
// turns a failed handshake, which reads as a bare TLS alert ("tls: bad
// record MAC", "bad certificate"), into what almost always happened: the
// client does not trust llmtck's CA, and --print-ca says how to.
type explainHandshakes struct{ w io.Writer }

func (e explainHandshakes) Write(p []byte) (int, error) {
	m := handshakeFailed.FindSubmatch(p)
	if m == nil {
		return e.w.Write(p)
	}
	msg := fmt.Sprintf("llmtck: %s: the client broke off the TLS handshake with llmtck's certificate for the host (%s): "+
		"it most likely does not trust llmtck's CA; `llmtck proxy --print-ca` shows the certificate and how to trust it\n",
		m[1], bytes.TrimSpace(m[2]))
	if _, err := io.WriteString(e.w, msg); err != nil {
		return 0, err
	}
	return len(p), nil
}
