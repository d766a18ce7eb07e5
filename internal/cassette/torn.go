package cassette

import "bytes"

// interactionStart begins every interaction of llmtck's layout; a torn
// one may end anywhere after its "-".
var interactionStart = []byte("\n- request:\n")

// salvage reads a cassette of llmtck's layout whose end was cut in the
// middle of an interaction (a recorder killed while appending a large
// one): the complete interactions before the cut are returned, with Torn
// set to the bytes left out. It returns nil when data is not such a file.
func salvage(name string, data []byte) *Cassette {
	if !bytes.HasPrefix(data, []byte(versionLine)) {
		return nil
	}
	for search := len(data); ; {
		i := bytes.LastIndex(data[:search], []byte("\n-"))
		if i < 0 {
			return nil
		}
		search = i
		cut := i + 1
		if ins, eph, ok := parseFast(data[:cut]); ok {
			c, err := finishFast(name, ins, eph)
			if err != nil {
				return nil
			}
			c.Torn = int64(len(data) - cut)
			return c
		}
	}
}
