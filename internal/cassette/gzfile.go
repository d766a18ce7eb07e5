package cassette

import (
	"bytes"
	"compress/gzip"
	"io"
)

// gunzipFile undoes a gzip-compressed recording file (.yaml.gz, as
// langchain-aws writes), reading at most MaxSize bytes of it so a small
// bomb cannot take the memory a large one would.
func gunzipFile(name string, data []byte) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, errorf(name, 0, "gzip-compressed file: %v", err)
	}
	out, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, errorf(name, 0, "gzip-compressed file: %v", err)
	}
	if len(out) > MaxSize {
		return nil, errorf(name, 0, "gzip-compressed file holds more than the %d MiB limit once decompressed", MaxSize>>20)
	}
	if isGzip(out) {
		return nil, errorf(name, 0, "gzip-compressed file holds another gzip stream; decompress it first")
	}
	return out, nil
}
