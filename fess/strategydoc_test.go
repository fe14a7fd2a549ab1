package fess

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"soko/internal/golden"
	"soko/internal/testlevel"
	"soko/solver"
)

// strategyDoc is the path of the document whose strategy table is
// generated from the Go table, between the two marker lines.
const (
	strategyDoc   = "../docs/fess.md"
	strategyBegin = "<!-- strategies:begin -->\n"
	strategyEnd   = "<!-- strategies:end -->\n"
)

// strategyTable renders the strategy table as Markdown.
func strategyTable() string {
	var b strings.Builder
	b.WriteString("| strategy | share | default | search | opening | moves | advisors | focus | ties | node taken | what it is for |\n")
	b.WriteString("| --- | ---: | :---: | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, s := range strategies {
		def, advisors := "no", advisorNames(s.advisors)
		if s.inDefault {
			def = "yes"
		}
		if s.unlimited {
			def += ", alone without a limit"
		}
		share := fmt.Sprintf("%d %%", s.share)
		if s.late > 0 {
			share = fmt.Sprintf("%d %% of the others' from %d s on (with threads, from the start)", s.share, int(s.late.Seconds()))
			if s.shareBefore > 0 {
				share = fmt.Sprintf("%d %% of the others' before %d s, %d %% from then on (with threads, %d %% from the start)", s.shareBefore, int(s.late.Seconds()), s.share, s.share)
			}
		}
		if s.smallShare > 0 {
			if !s.inDefault {
				def = "on small boards"
			}
			share += fmt.Sprintf(", %d on small boards", s.smallShare)
		}
		if advisors == "" {
			advisors = "—"
		}
		moves, ties, taken := s.moves.String(), "nearer first", s.taken.String()
		if s.farFirst {
			ties = "farther first"
		}
		if _, ok := s.search.(fessSearch); !ok {
			moves, ties, taken = "—", "—", "—" // not FESS macro-moves or cells
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", s.name, share, def, s.search, s.opening, moves, advisors, s.focus, ties, taken, s.doc)
	}
	return b.String()
}

// TestStrategyDoc: the strategy table in docs/fess.md is the Go table's
// (strategyTable); go test -run StrategyDoc -update rewrites it there.
func TestStrategyDoc(t *testing.T) {
	raw, err := os.ReadFile(strategyDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	i, j := strings.Index(doc, strategyBegin), strings.Index(doc, strategyEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q line before a %q line", strategyDoc, strings.TrimSpace(strategyBegin), strings.TrimSpace(strategyEnd))
	}
	i += len(strategyBegin)
	want := "\n" + strategyTable() + "\n"
	if doc[i:j] == want {
		return
	}
	if golden.Updating() {
		if err := os.WriteFile(strategyDoc, []byte(doc[:i]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the strategy table in %s is not the Go table's (go test ./fess -run StrategyDoc -update rewrites it):\n%s", strategyDoc, want)
}

// TestOneRowStrategy: a strategy that mixes behaviours already written is
// one more row of the table: here FESS counting boxes on goals (goals'
// opening) with the pair rule and the connectivity advisor, focusing late.
// Run through the portfolio's rounds beside plan, on a level neither
// solves at once, it takes its slices; alone, it solves a small level,
// and solver.Run verifies the solution.
func TestOneRowStrategy(t *testing.T) {
	table := append(slices.Clone(strategies), strategy{name: "throwaway", share: 5, search: fessSearch{}, opening: goalsPacked,
		advisors: withAdvisors(adviseConnectivity, betterOfTwo{}), focus: focusLast, doc: "a test's strategy"})
	run := func(level string, on ...string) solver.Result {
		p := solver.Portfolio{Members: membersOf(table, on, nil, true, &levelTables{})}
		res, err := solver.Run(context.Background(), p, testlevel.Resolve(t, level)[0], solver.Options{Budget: solver.Budget{Nodes: 3000}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := run("xsokoban90:35", "throwaway", "plan"); res.Stats.Counts["throwaway.expanded"] < 100 || res.Stats.Counts["plan.expanded"] < 100 {
		t.Errorf("beside plan: %v, counts %v; want both to have run", res.Status, res.Stats.Counts)
	}
	if res := run("microban:5", "throwaway"); res.Status != solver.Solved || res.Stats.Strategy != "throwaway" {
		t.Errorf("alone: %v by %q; want solved by throwaway", res.Status, res.Stats.Strategy)
	}
}

// advisorNames returns the names of as, comma-separated.
func advisorNames(as []advisor) string {
	var names []string
	for _, a := range as {
		names = append(names, a.String())
	}
	return strings.Join(names, ", ")
}
