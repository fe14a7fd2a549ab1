package fess

import (
	"strings"
	"testing"
)

// TestStrategyTable: the shares of the default list are percentages that
// add up to 100, every row has a share, a constructor and a distinct
// name, and the parameter's default and documentation come from the table.
func TestStrategyTable(t *testing.T) {
	sum, seen := 0, map[string]bool{}
	for _, s := range strategies {
		if s.share <= 0 || s.member == nil || s.doc == "" || seen[s.name] {
			t.Errorf("row %s: share %d, constructor %v, doc %q, seen before %v", s.name, s.share, s.member != nil, s.doc, seen[s.name])
		}
		seen[s.name] = true
		if s.inDefault {
			sum += s.share
		}
		if !strings.Contains(strategiesParam.Doc, s.name+" ") {
			t.Errorf("the parameter's doc leaves out %s", s.name)
		}
	}
	if sum != 100 {
		t.Errorf("the default list's shares add up to %d %%, want 100", sum)
	}
	if want := "greedy,dive,plan,imagine,park"; strategiesParam.Default != want {
		t.Errorf("default list %q, want %q", strategiesParam.Default, want)
	}
}
