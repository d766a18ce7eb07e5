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
	if _, err := checks.Select(nil, []string{"ANT-NOPE-001"}); err == nil || !strings.Contains(err.Error(), "--skip ANT-NOPE-001") {
		t.Errorf("skipping an ID no check has = %v; want an error naming it", err)
	}
	if _, err := checks.Select([]string{"ANT-*", "ANT-NOPE-*"}, nil); err == nil {
		t.Error("an --only pattern that names no check must fail, even beside one that does")
	}
	if _, err := checks.Select([]string{"["}, nil); err == nil {
		t.Error("a malformed glob must fail")
	}
}
