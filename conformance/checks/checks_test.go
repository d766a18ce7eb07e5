package checks_test

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/checks"
)

func TestSelect(t *testing.T) {
	all := checks.All()
	got, err := checks.Select(nil, nil)
	if err != nil || len(got) != len(all) {
		t.Fatalf("checks.Select() = %d checks, %v; want all %d", len(got), err, len(all))
	}
	got, err = checks.Select([]string{"ANT-STREAM-*"}, []string{"ANT-STREAM-004"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range got {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, " ") != "ANT-STREAM-001 ANT-STREAM-002 ANT-STREAM-003" {
		t.Errorf("Select = %v", ids)
	}
	if _, err := checks.Select([]string{"NOPE-*"}, nil); err == nil {
		t.Error("a filter selecting nothing must fail")
	}
	if _, err := checks.Select([]string{"["}, nil); err == nil {
		t.Error("a malformed glob must fail")
	}
}
