package cassette

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/llmtck/llmtck/internal/cassetteyaml"
)

// header is what EncodeHeader writes: the start of a go-vcr v2 cassette
// whose interactions follow as list items.
const header = versionLine + interactionsKey

const (
	versionLine     = "---\nversion: 1\n"
	interactionsKey = "interactions:\n"
	// ephemeralKey is llmtck's extra top-level key for Cassette.Ephemeral,
	// written before `interactions` so an appender still only appends;
	// go-vcr ignores keys it does not know.
	ephemeralKey = "llmtck_ephemeral"
)

// EncodeHeader writes the start of a go-vcr v2 cassette (`version: 1`). An
// appender writes it once and then one EncodeInteraction per interaction; the
// file is a valid cassette after each complete item.
func EncodeHeader(w io.Writer) error {
	_, err := io.WriteString(w, header)
	return err
}

// EncodeInteraction writes one `- request: … response: …` list item in a
// single Write, so an appender that syncs after it never leaves half an item
// behind a clean crash.
func EncodeInteraction(w io.Writer, in *Interaction) error {
	_, err := w.Write(AppendInteraction(nil, in))
	return err
}

// Encode writes c as a go-vcr v2 cassette (`version: 1`) that stock go-vcr
// v2.1.0 loads. Output is deterministic: header keys are sorted.
func (c *Cassette) Encode(w io.Writer) error {
	if _, err := w.Write(appendHeader(nil, c.Ephemeral)); err != nil {
		return err
	}
	var buf []byte
	for _, in := range c.Interactions {
		buf = AppendInteraction(buf[:0], in)
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// Save writes c to path atomically: to a temporary file in the same folder,
// synced, then renamed over path.
func Save(path string, c *Cassette) error {
	return writeAtomic(path, func(w io.Writer) error { return c.Encode(w) })
}

// writeAtomic writes what write writes to path: to a temporary file in the
// same folder, synced, then renamed over path, so a reader sees the old
// file or the new one, never a part.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// appendHeader appends the cassette's start: the version, the ephemeral
// list when there is one, then the `interactions` key.
func appendHeader(dst []byte, ephemeral []string) []byte {
	if len(ephemeral) == 0 {
		return append(dst, header...)
	}
	dst = append(dst, versionLine+ephemeralKey+":\n"...)
	for _, e := range ephemeral {
		dst = append(dst, "- "...)
		dst = cassetteyaml.AppendInline(dst, e)
		dst = append(dst, '\n')
	}
	return append(dst, interactionsKey...)
}

// AppendInteraction appends to dst exactly the bytes EncodeInteraction
// writes and returns the extended slice. An appender that reuses dst
// encodes without allocating. The layout is go-vcr v2's, so the fast reader
// knows exactly what to expect.
func AppendInteraction(dst []byte, in *Interaction) []byte {
	req, resp := &in.Request, &in.Response
	dst = append(dst, "- request:\n    body: "...)
	dst = cassetteyaml.AppendBody(dst, req.Body, 4)
	dst = append(dst, "\n    headers:"...)
	dst = appendHeaders(dst, req.Header, req.Body)
	dst = append(dst, "    url: "...)
	dst = cassetteyaml.AppendInline(dst, req.URL)
	dst = append(dst, "\n    method: "...)
	dst = cassetteyaml.AppendInline(dst, req.Method)
	dst = append(dst, "\n  response:\n    body: "...)
	dst = cassetteyaml.AppendBody(dst, resp.Body, 4)
	dst = append(dst, "\n    headers:"...)
	dst = appendHeaders(dst, resp.Header, resp.Body)
	status := resp.StatusText
	if status == "" {
		status = statusText(resp.Status, "")
	}
	dst = append(dst, "    status: "...)
	dst = cassetteyaml.AppendInline(dst, status)
	dst = append(dst, "\n    code: "...)
	dst = strconv.AppendInt(dst, int64(resp.Status), 10)
	dst = append(dst, "\n    duration: "...)
	dst = append(dst, resp.Duration.String()...)
	dst = append(dst, '\n')
	if resp.EventOffsets != nil {
		dst = append(dst, "    "+offsetsKey+": ["...)
		for i, d := range resp.EventOffsets {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = append(dst, d.String()...)
		}
		dst = append(dst, "]\n"...)
	}
	return dst
}

// appendHeaders writes a header mapping after "headers:", sorted, leaving
// out a Content-Encoding or Content-Length the body no longer matches (bodies
// are stored decoded, and go-vcr replays them as they are).
func appendHeaders(dst []byte, h http.Header, body []byte) []byte {
	var small [32]string // most calls have fewer headers: no allocation
	keys := small[:0]
	for k := range h {
		if !keepHeader(k, h, body) {
			continue
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return append(dst, " {}\n"...)
	}
	slices.Sort(keys)
	dst = append(dst, '\n')
	for _, k := range keys {
		dst = append(dst, "      "...)
		start := len(dst)
		dst = cassetteyaml.AppendInline(dst, k)
		if len(dst)-start > maxSimpleKey {
			// YAML allows at most 1024 characters before a ':'; longer keys
			// need the explicit "? key" form.
			key := append([]byte(nil), dst[start:]...)
			dst = append(append(append(dst[:start], "? "...), key...), "\n      "...)
		}
		dst = append(dst, ':')
		if len(h[k]) == 0 {
			dst = append(dst, " []\n"...)
			continue
		}
		dst = append(dst, '\n')
		for _, v := range h[k] {
			dst = append(dst, "      - "...)
			dst = cassetteyaml.AppendInline(dst, v)
			dst = append(dst, '\n')
		}
	}
	return dst
}

// maxSimpleKey is how long a written key may be and still be a plain
// "key:"; YAML's limit is 1024 characters.
const maxSimpleKey = 1000

func keepHeader(k string, h http.Header, body []byte) bool {
	// The two names, matched as http.CanonicalHeaderKey would match them,
	// without canonicalising every other key. EqualFold also folds k and
	// s to the two-byte Kelvin and long s signs; a key of the name's byte
	// length holds neither (FuzzKeepHeader).
	switch {
	case len(k) == len("Content-Encoding") && strings.EqualFold(k, "Content-Encoding"):
		return encodingMatches(h[k], body)
	case len(k) == len("Content-Length") && strings.EqualFold(k, "Content-Length"):
		v := h[k]
		var n [20]byte
		return len(v) == 1 && v[0] == string(strconv.AppendInt(n[:0], int64(len(body)), 10))
	}
	return true
}
