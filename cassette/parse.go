package cassette

import (
	"bytes"
	"io"
	"os"
	"strings"
)

// Load reads the file at path, refusing files larger than MaxSize, and parses
// it with Parse.
func Load(path string) (*Cassette, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Msg: oneLine(errText(err)), cause: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &Error{File: path, Msg: oneLine(errText(err)), cause: err}
	}
	if st.IsDir() {
		return nil, errorf(path, 0, "is a directory, expected a recording file")
	}
	if st.Size() > MaxSize {
		return nil, tooBig(path, st.Size())
	}
	data, err := readLimited(f, st.Size())
	if err != nil {
		return nil, &Error{File: path, Msg: oneLine(errText(err)), cause: err}
	}
	if len(data) > MaxSize {
		return nil, tooBig(path, int64(len(data)))
	}
	return Parse(path, data)
}

// readLimited reads r to the end but at most MaxSize+1 bytes, into a buffer
// sized from the expected size so a 50 MB file is not copied while growing.
func readLimited(r io.Reader, size int64) ([]byte, error) {
	data := make([]byte, 0, size+1)
	for {
		if len(data) > MaxSize {
			return data, nil
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):min(cap(data), MaxSize+1)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func tooBig(file string, n int64) *Error {
	return errorf(file, 0, "file is %d bytes, more than the %d MiB limit", n, MaxSize>>20)
}

// errText drops the path an *os.PathError repeats, since Error names the file.
func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// Parse reads a recording in any known format, detected from data alone.
// name is used in errors and as the cassette's Path.
func Parse(name string, data []byte) (*Cassette, error) {
	if len(data) > MaxSize {
		return nil, tooBig(name, int64(len(data)))
	}
	if isGzip(data) {
		inner, err := gunzipFile(name, data)
		if err != nil {
			return nil, err
		}
		return Parse(name, inner)
	}
	// llmtck's own layout has a fast reader; anything it does not recognise
	// goes the general way.
	if ins, eph, ok := parseFast(data); ok {
		return finishFast(name, ins, eph)
	}
	// Before the general reader, which would read the document before the
	// mark and say nothing of the bytes after it.
	if c := salvageBusy(name, data); c != nil {
		return c, nil
	}
	f, doc, err := detect(name, data)
	if err == nil {
		var c *Cassette
		if c, err = parseDetected(name, data, f, doc); err == nil && !cutShort(c) {
			return c, nil
		}
	}
	if c := salvage(name, data); c != nil {
		return c, nil
	}
	if err == nil {
		return nil, errorf(name, bytes.Count(data, []byte("\n"))+1, "the last interaction has no response code: the file was cut short")
	}
	return nil, err
}

// cutShort reports whether a go-vcr cassette's last interaction lacks the
// response status every writer puts there: the file ends inside it. Older
// llmtck versions recorded failed connections with status 0, marked by an
// X-Llmtck-Error header; those are whole.
func cutShort(c *Cassette) bool {
	n := len(c.Interactions)
	if c.Format != FormatGoVCRv1 || n == 0 {
		return false
	}
	r := c.Interactions[n-1].Response
	return r.Status == 0 && r.StatusText == "" && r.Header.Get("X-Llmtck-Error") == ""
}

// ParseAs reads data as format f without detection, for `import --from`.
// Besides the Format constants it takes "auto" (or ""), which is Parse, and
// "govcr", which is go-vcr of whichever version the file says.
func ParseAs(name string, data []byte, f Format) (*Cassette, error) {
	if len(data) > MaxSize {
		return nil, tooBig(name, int64(len(data)))
	}
	if isGzip(data) {
		inner, err := gunzipFile(name, data)
		if err != nil {
			return nil, err
		}
		return ParseAs(name, inner, f)
	}
	switch f {
	case "auto", "":
		return Parse(name, data)
	case FormatHTTPRR, FormatHAR, FormatJSONL, FormatHTTPMock, FormatNock:
		return parseDetected(name, data, f, nil)
	case FormatGoVCRv1, FormatGoVCRv2, FormatVCRPy, FormatRubyVCR, FormatVCRLists, "govcr":
	default:
		return nil, errorf(name, 0, "unknown format %q, expected auto, govcr or one of %s", f, formatList())
	}
	if f == FormatGoVCRv1 || f == "govcr" {
		if ins, eph, ok := parseFast(data); ok {
			return finishFast(name, ins, eph)
		}
	}
	if err := checkText(name, data); err != nil {
		return nil, err
	}
	doc, err := parseYAML(name, data)
	if err != nil {
		return nil, err
	}
	if f == "govcr" {
		f = FormatGoVCRv1
		if doc.version() == "2" {
			f = FormatGoVCRv2
		}
	}
	return parseDetected(name, data, f, doc)
}

func formatList() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// parseDetected runs the reader for f. doc is the parsed YAML document for
// the YAML formats.
func parseDetected(name string, data []byte, f Format, doc *yamlDoc) (*Cassette, error) {
	var (
		ins []*Interaction
		err error
	)
	switch f {
	case FormatHTTPRR:
		ins, err = readHTTPRR(name, data)
	case FormatHAR:
		ins, err = readHAR(name, data)
	case FormatJSONL:
		ins, err = readJSONL(name, data)
	case FormatGoVCRv1, FormatGoVCRv2:
		ins, err = doc.readGoVCR()
	case FormatVCRPy:
		ins, err = doc.readVCRPy()
	case FormatRubyVCR:
		ins, err = doc.readRubyVCR()
	case FormatVCRLists:
		ins, err = doc.readVCRLists()
	case FormatHTTPMock:
		ins, err = readHTTPMock(name, data)
	case FormatNock:
		ins, err = readNock(name, data)
	default:
		return nil, errorf(name, 0, "unknown format %q, expected one of %s", f, formatList())
	}
	if err != nil {
		return nil, err
	}
	var eph []string
	if doc != nil {
		if eph, err = doc.ephemeral(); err != nil {
			return nil, err
		}
	}
	c, err := finish(name, f, ins)
	if err != nil {
		return nil, err
	}
	c.Ephemeral = eph
	return c, nil
}

// finishFast is finish for what the fast reader read.
func finishFast(name string, ins []*Interaction, ephemeral []string) (*Cassette, error) {
	c, err := finish(name, FormatGoVCRv1, ins)
	if err != nil {
		return nil, err
	}
	c.Ephemeral = ephemeral
	return c, nil
}
