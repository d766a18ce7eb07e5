package cassette

import "strconv"

// readVCRLists reads vcrpy's request and response mappings kept in two
// parallel lists, `requests:` and `responses:` (langchain-aws's cassette
// serializer): the i-th response answers the i-th request.
func (d *yamlDoc) readVCRLists() ([]*Interaction, error) {
	reqs, err := d.interactionList("requests")
	if err != nil {
		return nil, err
	}
	resps, err := d.interactionList("responses")
	if err != nil {
		return nil, err
	}
	if len(reqs) != len(resps) {
		fs, _, _ := d.fields(d.root, "the cassette")
		return nil, d.errorf(fs["responses"].key, "%d requests but %d responses: the lists must pair up", len(reqs), len(resps))
	}
	out := make([]*Interaction, 0, len(reqs))
	for i := range reqs {
		what := "interaction " + strconv.Itoa(i)
		in := &Interaction{}
		req, err := d.node(reqs[i])
		if err != nil {
			return nil, err
		}
		rfs, _, err := d.fields(req, "requests["+strconv.Itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		if err := d.vcrRequest(rfs, what+" request", &in.Request); err != nil {
			return nil, err
		}
		resp, err := d.node(resps[i])
		if err != nil {
			return nil, err
		}
		sfs, _, err := d.fields(resp, "responses["+strconv.Itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		if err := d.vcrResponse(side{fs: sfs, line: resp.Line}, what+" response", &in.Response); err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, nil
}
