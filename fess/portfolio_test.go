package fess

import (
	"container/heap"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/level"
	"soko/solver"
	"soko/verify"
)

// TestStrategyTable: the shares of the default list are percentages that
// add up to 100, every row has a share, a search, an opening and a
// distinct name, one row runs without a limit, and the parameter's default
// and documentation come from the table.
func TestStrategyTable(t *testing.T) {
	sum, seen, unlimited := 0, map[string]bool{}, 0
	for _, s := range strategies {
		if s.share <= 0 || s.search == nil || s.opening == nil || s.doc == "" || seen[s.name] {
			t.Errorf("row %s: share %d, search %v, opening %v, doc %q, seen before %v", s.name, s.share, s.search, s.opening, s.doc, seen[s.name])
		}
		if s.unlimited {
			unlimited++
		}
		seen[s.name] = true
		if s.inDefault && s.late == 0 {
			sum += s.share
		}
		if !strings.Contains(strategiesParam.Doc, s.name+" ") {
			t.Errorf("the parameter's doc leaves out %s", s.name)
		}
	}
	if sum != 100 || unlimited != 1 {
		t.Errorf("the default list's shares (the late rows' aside) add up to %d %%, want 100; %d rows run without a limit, want 1", sum, unlimited)
	}
	if want := "greedy,dive,plan,imagine,back,park,sink,order,bigreedy,tail"; strategiesParam.Default != want {
		t.Errorf("default list %q, want %q", strategiesParam.Default, want)
	}
}

// TestStrategies: each strategy of the portfolio, alone, solves small
// levels, and the portfolio stops at the first that finds a solution.
func TestStrategies(t *testing.T) {
	for _, name := range Strategies() {
		for _, l := range testlevel.Resolve(t, "microban:1-10") {
			if name == "order" && l.Name() == "microban:8" {
				continue // its moves leave out every solution (TestPackingMovesNoProof)
			}
			opts := solver.Options{Budget: solver.Budget{Time: time.Minute}, Params: map[string]string{"strategies": name}}
			res, err := solver.Run(context.Background(), FESS{}, l, opts)
			if err != nil || res.Status != solver.Solved {
				t.Errorf("%s, %s: %v, %v", name, l.Name(), res.Status, err)
			}
		}
	}
	opts := solver.Options{Budget: solver.Budget{Time: time.Minute}, Params: map[string]string{"strategies": "plan,greedy"}}
	res, err := solver.Run(context.Background(), FESS{}, testlevel.Resolve(t, "microban:2")[0], opts)
	if err != nil || res.Status != solver.Solved || res.Stats.Expanded != 3 {
		t.Errorf("plan then greedy on microban:2: %v, %v after %d expansions, want solved by plan after 3", res.Status, err, res.Stats.Expanded)
	}
}

// TestOpener: the opener strategy searches differently from plan (its
// advisor changes which moves weigh 0).
func TestOpener(t *testing.T) {
	l := testlevel.Resolve(t, "microban:140")[0]
	var expanded [2]int64
	for i, name := range []string{"plan", "opener"} {
		res, err := row(name).Solve(context.Background(), l, solver.Options{Budget: solver.Budget{Nodes: 3000}})
		if err != nil {
			t.Fatal(err)
		}
		expanded[i] = res.Stats.Expanded
		if res.Status == solver.Solved {
			expanded[i] = -expanded[i]
		}
	}
	if expanded[0] == expanded[1] {
		t.Errorf("plan and opener both end after %d expansions", expanded[0])
	}
}

// TestImagine: the imagine strategy solves XSokoban 69, which the plan
// strategies do not solve in minutes, within 30,000 expansions (a third of
// them backward), by meeting its backward search; solver.Run verifies the
// spliced solution.
func TestImagine(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:69")[0]
	opts := solver.Options{Budget: solver.Budget{Nodes: 30_000, Time: 5 * time.Minute}, Params: map[string]string{"strategies": "imagine"}}
	res, err := solver.Run(context.Background(), FESS{}, l, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solver.Solved || res.Stats.Counts["imagine.met"] != 1 {
		t.Fatalf("%v after %d expansions, counts %v", res.Status, res.Stats.Expanded, res.Stats.Counts)
	}
}

// TestImagineStopsAtStart: imagine's backward search ends its opening
// once it has pulled back to the start, and run meets the start there
// before a forward expansion. On Microban 112 that is 7,675 expansions;
// running the opening on to its third of 300,000 exhausts the backward
// graph at 93,184.
func TestImagineStopsAtStart(t *testing.T) {
	l := testlevel.Resolve(t, "microban:112")[0]
	opts := solver.Options{Budget: solver.Budget{Nodes: 300_000}, Params: map[string]string{"strategies": "imagine"}}
	res, err := solver.Run(context.Background(), FESS{}, l, opts)
	if err != nil {
		t.Fatal(err)
	}
	back, all := res.Stats.Counts["imagine.backward.expanded"], res.Stats.Counts["imagine.expanded"]
	if res.Status != solver.Solved || res.Stats.Counts["imagine.met"] != 1 || back != all || back > 20_000 {
		t.Fatalf("%v, %d expansions of which %d backward, counts %v", res.Status, all, back, res.Stats.Counts)
	}
}

// searchBeside runs strategy s alone on l under a node budget, with view
// what it may meet, as member.Share gives it, and returns its result and
// engine.
func searchBeside(t *testing.T, l *level.Level, s string, nodes int64, view knowledge) (solver.Result, *engine) {
	t.Helper()
	opts := solver.Options{Budget: solver.Budget{Nodes: nodes}}
	e, _, err := newEngine(l, solver.NewGuard(context.Background(), opts), opts, nil, nil)
	if err != nil || e == nil {
		t.Fatalf("%s: no engine: %v", s, err)
	}
	e.use(row(s))
	e.shared = view
	res, err := runEngine(e)
	if err != nil {
		t.Fatal(err)
	}
	return res, e
}

// TestImagineMeetsOthers: a meeting of imagine's backward search with
// another strategy's tree during its opening ends the search there, with
// the spliced solution, before its own forward tree has a root.
func TestImagineMeetsOthers(t *testing.T) {
	l := testlevel.Resolve(t, "microban:146")[0]
	_, oe := searchBeside(t, l, "opener", 2_000, knowledge{})
	met, ie := searchBeside(t, l, "imagine", 300_000, knowledge{trees: []*engine{oe}})
	if met.Status != solver.Solved || ie.meeting.in != oe || ie.tree.store.Len() != 0 {
		t.Fatalf("%v after %d expansions, the forward tree %d positions; met in opener's tree: %v", met.Status, met.Stats.Expanded, ie.tree.store.Len(), ie.meeting.in == oe)
	}
	if r := verify.Replay(l, met.Moves); !r.Solved {
		t.Errorf("the spliced solution does not solve the level: %s", r.Reason)
	}
}

// TestFocusing: goals focuses always, plan on the last quarter of its
// budget (counted in expansions under a node limit), imagine never; and
// with focusing, a turn of the best cell that has no node waiting goes to
// the best cell that has.
func TestFocusing(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:15")[0]
	opts := solver.Options{Budget: solver.Budget{Nodes: 400}}
	engineFor := func(s *strategy) *engine {
		e, _, err := newEngine(l, solver.NewGuard(context.Background(), opts), opts, nil, nil)
		if err != nil || e == nil {
			t.Fatalf("no engine: %v", err)
		}
		e.use(s)
		return e
	}
	for _, tc := range []struct {
		name          string
		s             *strategy
		expanded      int64
		wantFocussing bool
	}{
		{"plan before its ending", row("plan"), 299, false},
		{"plan ending", row("plan"), 300, true},
		{"goals", row("goals"), 399, true},
		{"dive", row("dive"), 0, true},
		{"imagine", row("imagine"), 0, false},
	} {
		e := engineFor(tc.s)
		e.stats.Expanded = tc.expanded
		if got := e.focusing(); got != tc.wantFocussing {
			t.Errorf("%s at %d expansions: focusing %v, want %v", tc.name, tc.expanded, got, tc.wantFocussing)
		}
	}

	// Search a while, then empty the best cell: a focusing engine's next
	// best turn picks from the best cell still holding live nodes.
	e := engineFor(row("goals"))
	if res, err := runEngine(e); err != nil || res.Status != solver.NodeLimit {
		t.Fatalf("run: %v, %v", res.Status, err)
	}
	e.queue.cells[e.queue.best].wait = nil
	want := int32(-1)
	for i := range e.queue.cells {
		c := &e.queue.cells[i]
		c.wait = slices.DeleteFunc(c.wait, func(en entry) bool { // stale entries out
			nd := e.tree.at(en.id)
			return nd.state != generated || int32(en.key>>48) != nd.weight || nd.cell != int32(i)
		})
		heap.Init(&c.wait)
		if len(c.wait) > 0 && (want < 0 || c.key.better(e.queue.cells[want].key)) {
			want = int32(i)
		}
	}
	if want < 0 {
		t.Fatal("no cell holds a live node")
	}
	e.queue.turn |= 1 // the next turn is the best cell's
	id, ok := e.next()
	if !ok || e.tree.at(id).cell != want {
		t.Fatalf("next gave node %d of cell %v, want one of the best live cell %v", id, e.queue.cells[e.tree.at(id).cell].key, e.queue.cells[want].key)
	}
}

// TestDive: the dive strategy, plan FESS focusing from the start, solves
// XSokoban 35 within 8,000 expansions, where plan, which focuses only on
// the last quarter of its budget, does not.
func TestDive(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:35")[0]
	for _, tc := range []struct {
		name string
		s    *strategy
		want solver.Status
	}{
		{"dive", row("dive"), solver.Solved},
		{"plan", row("plan"), solver.NodeLimit},
	} {
		res, err := tc.s.Solve(context.Background(), l, solver.Options{Budget: solver.Budget{Nodes: 8000}})
		if err != nil || res.Status != tc.want {
			t.Errorf("%s: %v, %v after %d expansions, want %v", tc.name, res.Status, err, res.Stats.Expanded, tc.want)
		}
	}
}

// row returns the strategy table's row called name.
func row(name string) *strategy {
	for i := range strategies {
		if strategies[i].name == name {
			return &strategies[i]
		}
	}
	panic("no strategy " + name)
}

// TestBack: the back strategy alone solves XSokoban 21, which every
// forward strategy misses at 60 s, within 60,000 backward expansions, by
// reaching the start position (the meeting with the forward store, which
// holds only the start); solver.Run verifies the solution made of its
// pulls undone. On a level whose start no pull from the solved position
// reaches it ends with no solution.
func TestBack(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:21")[0]
	opts := solver.Options{Budget: solver.Budget{Nodes: 60_000, Time: 5 * time.Minute}, Params: map[string]string{"strategies": "back"}}
	res, err := solver.Run(context.Background(), FESS{}, l, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solver.Solved || res.Stats.Counts["back.met"] != 1 || res.Stats.Counts["back.backward.expanded"] != res.Stats.Expanded {
		t.Fatalf("%v after %d expansions, counts %v", res.Status, res.Stats.Expanded, res.Stats.Counts)
	}
	l = testlevel.Parse(t, "#######\n#.@$  #\n#######\n")
	res, err = solver.Run(context.Background(), FESS{}, l, opts)
	if err != nil || res.Status != solver.NoSolution {
		t.Fatalf("got %v, %v; want no solution", res.Status, err)
	}
}

// TestBackMeetsOthers: the back strategy's search meets the trees of the
// other strategies (engine.shared, as member.Share gives it), not only the
// start. On Microban 146, back alone needs 4,553 expansions; with the
// tree of 2,000 expansions of opener (which has not solved it) it meets a
// position opener stored at once, and the solution spliced from opener's
// path and back's pulls undone replays to the solved position.
func TestBackMeetsOthers(t *testing.T) {
	l := testlevel.Resolve(t, "microban:146")[0]
	alone, _ := searchBeside(t, l, "back", 20_000, knowledge{})
	opener, oe := searchBeside(t, l, "opener", 2_000, knowledge{})
	met, be := searchBeside(t, l, "back", 20_000, knowledge{trees: []*engine{oe}})
	if opener.Status != solver.NodeLimit || alone.Status != solver.Solved || met.Status != solver.Solved || be.meeting.in != oe || met.Stats.Expanded >= alone.Stats.Expanded {
		t.Fatalf("opener %v; back alone %v after %d expansions; with opener's tree %v after %d, met in opener's tree: %v",
			opener.Status, alone.Status, alone.Stats.Expanded, met.Status, met.Stats.Expanded, be.meeting.in == oe)
	}
	if r := verify.Replay(l, met.Moves); !r.Solved {
		t.Errorf("the spliced solution does not solve the level: %s", r.Reason)
	}
}

// TestForwardMeetsBack checks the other direction of the meeting: a
// forward strategy whose search reaches a position in the back strategy's
// store (engine.shared) ends with the spliced solution, where neither
// search alone solves the level in its budget.
func TestForwardMeetsBack(t *testing.T) {
	l := testlevel.Resolve(t, "microban:146")[0]
	back, be := searchBeside(t, l, "back", 3_000, knowledge{})
	opener, _ := searchBeside(t, l, "opener", 2_000, knowledge{})
	met, oe := searchBeside(t, l, "opener", 2_000, knowledge{back: be.back})
	if back.Status != solver.NodeLimit || opener.Status != solver.NodeLimit || met.Status != solver.Solved || oe.meeting.from != be.back {
		t.Fatalf("back alone %v, opener alone %v; opener with back's store %v after %d expansions, met in back's store: %v",
			back.Status, opener.Status, met.Status, met.Stats.Expanded, oe.meeting.from == be.back)
	}
	if met.Stats.Counts["met.back"] != 1 {
		t.Errorf("counts %v: want met.back 1", met.Stats.Counts)
	}
	if r := verify.Replay(l, met.Moves); !r.Solved {
		t.Errorf("the spliced solution does not solve the level: %s", r.Reason)
	}
}

// TestQueueBytes: the cell queue's bytes, kept as its heaps grow, equal
// the sum over the cells worked out afresh, after a search that left
// hundreds of cells.
func TestQueueBytes(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:28")[0]
	opts := solver.Options{Budget: solver.Budget{Nodes: 3000}}
	e, _, err := newEngine(l, solver.NewGuard(context.Background(), opts), opts, nil, nil)
	if err != nil || e == nil {
		t.Fatalf("no engine: %v", err)
	}
	e.use(row("plan"))
	if res, err := runEngine(e); err != nil || res.Status != solver.NodeLimit {
		t.Fatalf("run: %v, %v", res.Status, err)
	}
	q := &e.queue
	want := int64(len(q.cells)) * cellBytes
	for i := range q.cells {
		want += entryBytes * int64(cap(q.cells[i].wait)+cap(q.cells[i].byFeat))
	}
	if len(q.cells) < 100 {
		t.Errorf("%d cells: the test wants a search that leaves hundreds", len(q.cells))
	}
	if got := q.bytes(); got != want {
		t.Errorf("bytes %d, the cells' heaps sum to %d", got, want)
	}
}

// TestSmall: a board is small below smallBoard squares, and below
// denseBoard when it has denseBoxes boxes or more per live square; a
// sparser board of that size is not.
func TestSmall(t *testing.T) {
	for _, tc := range []struct {
		level string
		want  bool
	}{
		{"microban:1", true},    // 14 squares
		{"microban:144", true},  // 64 squares, 16 boxes on 44 live ones
		{"xsokoban90:48", true}, // 94 squares, 34 boxes on 84 live ones
		{"xsokoban90:7", false}, // 64 squares, 11 boxes on 43 live ones
	} {
		if got := small(testlevel.Resolve(t, tc.level)[0]); got != tc.want {
			t.Errorf("%s: small %v, want %v", tc.level, got, tc.want)
		}
	}
	// 110 squares, 36 boxes on the 72 off the walls: dense, so small.
	if !small(denseRoom(11, 10)) {
		t.Error("a dense room of 110 squares is not small")
	}
	// 264 squares, 100 boxes on the 200 off the walls: dense, but too big.
	if small(denseRoom(22, 12)) {
		t.Error("a dense room of 264 squares is small")
	}
}

// denseRoom returns a level of one room of w×h squares, the player in a
// corner, and a box on a goal on every other square off the walls.
func denseRoom(w, h int) *level.Level {
	rows := []string{strings.Repeat("#", w+2)}
	for y := range h {
		row := []byte("#" + strings.Repeat(" ", w) + "#")
		for x := 2; x < w; x++ {
			if y > 0 && y < h-1 && (x+y)%2 == 0 {
				row[x] = '*'
			}
		}
		rows = append(rows, string(row))
	}
	rows = append(rows, strings.Repeat("#", w+2))
	rows[1] = "#@" + rows[1][2:]
	return testlevel.Grid(rows...)
}

// TestBoardShares: on a small board bigreedy takes its small-board share
// and the tail joins late with the others' shares together, running
// before on a percentage of them as on a usual board; with two
// threads one thread's worth runs those shares and the thread added a
// board's usual ones, so each other strategy has at least its usual share
// of that thread and bigreedy a whole thread; a board not small keeps its
// shares with threads.
func TestBoardShares(t *testing.T) {
	on := strings.Split(strategyList(), ",")
	before := map[string]float64{} // the tail's share before it joins, by board and threads
	shares := func(isSmall bool, threads int) map[string]float64 {
		members := membersOf(strategies, on, nil, true, &levelTables{})
		got := map[string]float64{}
		for _, m := range boardShares(strategies, members, isSmall, false, threads) {
			got[m.Name] = m.Share
			if m.Name == "tail" {
				before[fmt.Sprint(isSmall, threads)] = m.ShareBefore
			}
		}
		return got
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	one := shares(true, 1)
	if one["bigreedy"] != 900 || one["back"] != 10 || one["tail"] != 975 || one["pair"] != 0 {
		t.Errorf("small board, one thread: bigreedy %g, back %g, tail %g, pair %g; want 900, 10, 975, 0", one["bigreedy"], one["back"], one["tail"], one["pair"])
	}
	usual := shares(false, 1)
	if usual["bigreedy"] != 25 || usual["tail"] != 100 {
		t.Errorf("usual board: bigreedy %g, tail %g; want 25, 100", usual["bigreedy"], usual["tail"])
	}
	// Before it joins the tail has 10 % of the others' shares together.
	if small, usual := before["true 1"], before["false 1"]; !near(small, 0.10*975) || !near(usual, 10) {
		t.Errorf("the tail's share before it joins: small board %g, usual board %g; want %g, 10", small, usual, 0.10*975)
	}
	if two := shares(false, 2); !maps.Equal(two, usual) {
		t.Errorf("usual board, two threads: %v, want %v", two, usual)
	}
	two := shares(true, 2)
	sum := 0.0
	for name, s := range two {
		sum += s
		if name != "tail" && !near(s, 100*one[name]/975+100*usual[name]/200) {
			t.Errorf("small board, two threads: %s %g, want %g (one thread's worth) + %g (the added thread)", name, s, 100*one[name]/975, 100*usual[name]/200)
		}
	}
	if !near(sum, 200) || !near(two["tail"], 50) || two["bigreedy"] < 100 {
		t.Errorf("small board, two threads: shares add up to %g, tail %g, bigreedy %g; want 200, 50 and at least 100", sum, two["tail"], two["bigreedy"])
	}
	// Two strategies run on two threads at most: four threads asked give
	// the shares of two.
	pair := func(threads int) map[string]float64 {
		members := membersOf(strategies, []string{"bigreedy", "plan"}, nil, true, &levelTables{})
		got := map[string]float64{}
		for _, m := range boardShares(strategies, members, true, true, threads) {
			if m.Share > 0 {
				got[m.Name] = m.Share
			}
		}
		return got
	}
	if four, two := pair(4), pair(2); !maps.Equal(four, two) {
		t.Errorf("bigreedy and plan on a small board: four threads %v, want two threads' %v", four, two)
	}
}

// TestSmallFirst: on a small board greedy runs first, as everywhere, then
// bigreedy, then the other rows in the table's order.
func TestSmallFirst(t *testing.T) {
	members := membersOf(strategies, strings.Split(strategyList(), ","), nil, true, &levelTables{})
	var got, want []string
	for _, m := range smallFirst(strategies, members) {
		got = append(got, m.Name)
	}
	want = append(want, "greedy", "bigreedy")
	for _, s := range strategies {
		if s.name != "greedy" && s.name != "bigreedy" {
			want = append(want, s.name)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestTurnsByFeatures: in a strategy that takes turns by features (imagine),
// the best cell's turns alternate between its lightest waiting node and
// its node with the best features, its weight aside; a strategy that
// does not (park) takes the lightest on both; one that takes them late
// (plan) does so once half its budget is spent, and not before.
func TestTurnsByFeatures(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:15")[0]
	opts := solver.Options{Budget: solver.Budget{Nodes: 400}}
	for _, c := range []struct {
		s      string
		byFeat bool
		early  bool // the budget raised past the search's, so that half of it is not spent
	}{{"imagine", true, false}, {"park", false, false}, {"plan", true, false}, {"plan", false, true}} {
		s := c.s
		e, _, err := newEngine(l, solver.NewGuard(context.Background(), opts), opts, nil, nil)
		if err != nil || e == nil {
			t.Fatalf("no engine: %v", err)
		}
		e.use(row(s))
		if res, err := runEngine(e); err != nil || res.Status != solver.NodeLimit {
			t.Fatalf("%s: %v, %v", s, res.Status, err)
		}
		if c.early { // as if the search were short of half its budget: the turns by features not on yet
			e.budget.Nodes, e.queue.featuresOn = 3*opts.Budget.Nodes, false
			s += " early"
		}
		// first returns the first live entry of es in the heap's order.
		first := func(es entries, live func(entry) bool) (entry, bool) {
			var best entry
			found := false
			for _, en := range es {
				if live(en) && (!found || entries{en, best}.Less(0, 1)) {
					best, found = en, true
				}
			}
			return best, found
		}
		// A cell where the lightest node is not the one with the best
		// features, made the best cell.
		var lightest, byFeat entry
		cell := int32(-1)
		for i := range e.queue.cells {
			c := int32(i)
			lw, ok := first(e.queue.cells[i].wait, func(en entry) bool { return e.current(en, c) })
			if !ok {
				continue
			}
			var all entries // every live node of the cell, keyed by its order
			for _, en := range e.queue.cells[i].wait {
				if e.current(en, c) {
					all = append(all, entry{key: e.tree.at(en.id).feat.order(e.strat.farFirst), id: en.id})
				}
			}
			bf, _ := first(all, func(entry) bool { return true })
			if bf.id != lw.id {
				lightest, byFeat, cell = lw, bf, c
				break
			}
		}
		if cell < 0 {
			t.Fatalf("%s: no cell whose lightest node is not its best", s)
		}
		e.queue.best = cell
		e.queue.turn = 4*e.queue.turn + 1 // the next turn is the best cell's, by features where the strategy takes such turns
		want := byFeat.id
		if !c.byFeat {
			want = lightest.id
		}
		if id, ok := e.next(); !ok || id != want {
			t.Errorf("%s: the best cell's turn by features took node %d (%v), want %d", s, id, ok, want)
		}
		now, _ := first(e.queue.cells[cell].wait, func(en entry) bool { return e.current(en, cell) })
		if c.byFeat && now.id != lightest.id {
			t.Fatalf("%s: the turn by features took the lightest node's entry", s)
		}
		e.queue.turn = 4*e.queue.turn + 3 // the next turn is the best cell's, the lightest
		if id, ok := e.next(); !ok || id != now.id {
			t.Errorf("%s: the best cell's turn took node %d (%v), want the lightest, %d", s, id, ok, now.id)
		}
	}
}
