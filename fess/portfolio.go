package fess

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"soko/deadlock"
	"soko/level"
	"soko/search"
	"soko/sokoban"
	"soko/solver"
)

// strategies is the strategy table: the portfolio's members, in this order
// (solver.Portfolio), each with its share of the budget, as Festival runs
// its searches (the FESS paper). Each row names its behaviours
// (strategy.go): the kind of search, its opening, its advisors and when it
// focuses. docs/fess.md, "The strategies", is generated from it
// (TestStrategyDoc) and says which measurements chose each share.
var strategies = []strategy{
	{name: "greedy", share: 1, inDefault: true, search: greedySearch{}, opening: noOpening, focus: focusNever,
		doc: "greedy best-first over single pushes, first and short: it solves nearly every small level at once"},
	{name: "dive", share: 4, inDefault: true, search: fessSearch{}, opening: replanning, advisors: planAdvisors, focus: focusAlways, taken: takeTurnsLate,
		doc: "plan FESS focusing from the start, on a tree of its own: levels plan takes tens of thousands of expansions for, in a few thousand"},
	{name: "plan", share: 24, inDefault: true, unlimited: true, search: fessSearch{}, opening: replanning, advisors: planAdvisors, focus: focusLast, taken: takeTurnsLate,
		doc: "FESS along the packing plan, focusing on its last quarter: the broad search that solves most levels"},
	{name: "goals", share: 2, search: fessSearch{}, opening: goalsPacked, advisors: planAdvisors, focus: focusAlways,
		doc: "FESS counting boxes on goals in any order as packed: levels whose plan asks first for a goal that is hard to fill"},
	{name: "imagine", share: 14, inDefault: true, search: fessSearch{}, opening: imagining, advisors: planAdvisors, focus: focusNever, taken: takeTurns,
		doc: "Festival's HF: the backward search first, then FESS packing towards its most opened position, meeting its store"},
	{name: "opener", share: 5, search: fessSearch{}, opening: replanning, advisors: withAdvisors(adviseConnectivity, adviseOpener), focus: focusLast,
		doc: "plan FESS with the opener and connectivity advisors: levels whose first goal needs a long way round"},
	{name: "pair", share: 30, search: fessSearch{}, opening: replanning, advisors: withAdvisors(betterOfTwo{}), focus: focusLast,
		doc: "plan FESS where, as in Festival, the better of a node's two moves weighs 0 too"},
	{name: "back", share: 10, inDefault: true, search: backSearch{}, opening: noOpening, focus: focusNever,
		doc: "greedy best-first over pull macro-moves from the solved position to the start, meeting the other strategies' trees"},
	{name: "park", share: 10, inDefault: true, search: fessSearch{}, opening: fixedSink, advisors: withAdvisors(adviseConnectivity, clearingAdvisor{}), focus: focusLast, farFirst: true,
		doc: "FESS along a parking plan from a backward search with a sink fixed at the start, ordered as Festival's forward search with its sink"},
	{name: "sink", share: 8, inDefault: true, search: fessSearch{}, opening: movingSink, advisors: withAdvisors(adviseConnectivity, clearingAdvisor{}), focus: focusLast, taken: takeTurnsLate,
		doc: "park with Festival's moving sink in its parking search (never focusing on the pull ordering's plan)"},
	{name: "order", share: 4, inDefault: true, search: fessSearch{}, opening: movingSink, moves: packingMoves, advisors: withAdvisors(adviseConnectivity, clearingAdvisor{}), focus: focusLast,
		doc: "sink making only YASS's packing-order moves (a box onto a goal not packed yet, to its farthest squares, or one push): goal areas whose boxes go in one by one, in a small part of the graph"},
	{name: "bigreedy", share: 25, smallShare: 900, inDefault: true, search: biGreedySearch{}, opening: noOpening, focus: focusNever,
		doc: "greedy best-first over pushes from the start and over pulls from the goals, meeting in one table: small dense levels, and large ones a plain push search solves sooner than FESS"},
	{name: "pull", share: 7, search: fessSearch{}, opening: pulledSink, advisors: withAdvisors(adviseConnectivity, clearingAdvisor{}), focus: focusNever, taken: takeTurns,
		doc: "sink with its parking search ordered as Festival's pull search only, never focusing"},
	{name: "tail", share: 100, shareBefore: 10, inDefault: true, late: tailJoin, search: fessSearch{}, opening: pulledSink, advisors: tailAdvisors, focus: focusNever, taken: takeTurns,
		doc: "pull without the hotspot advisor, on 10 % of the others' shares together until they have had 10 s, then on all of theirs (with threads, on all from the start): the hard tail, levels one search solves in tens of seconds, and a few it solves at once that the others do not"},
}

// tailJoin is when the tail strategy takes its whole share with one
// thread: once the other strategies have had 10 s of their own time
// together (solver.Member.Late; before, it runs on its shareBefore; with
// threads it has its share at once), in which they solve what the default
// solves quickly. A level still open then is the hard tail, where pull
// without the hotspot advisor solves what no other strategy does in a
// minute (docs/fess.md, "The rounds").
const tailJoin = 10 * time.Second

// Strategies returns the names of the strategy table's rows, in order.
func Strategies() []string {
	var names []string
	for _, s := range strategies {
		names = append(names, s.name)
	}
	return names
}

var strategiesParam = solver.Param{Name: "strategies", Kind: solver.List,
	Default: strategyList(), Values: Strategies(), Doc: strategiesDoc()}

// strategyList returns the default list, comma-separated.
func strategyList() string {
	var names []string
	for _, s := range strategies {
		if s.inDefault {
			names = append(names, s.name)
		}
	}
	return strings.Join(names, ",")
}

// strategiesDoc documents the parameter from the table.
func strategiesDoc() string {
	var rows []string
	for _, s := range strategies {
		rows = append(rows, fmt.Sprintf("%s %d %% (%s)", s.name, s.share, strings.SplitN(s.doc, ":", 2)[0]))
	}
	return "the portfolio's strategies, run in this order, each on its share of the budget: " + strings.Join(rows, ", ") +
		"; the default list's shares add up to 100 %, another list's are rescaled to its sum; on a board of fewer than " + fmt.Sprint(smallBoard) +
		" squares, or fewer than " + fmt.Sprint(denseBoard) + " with " + fmt.Sprint(denseBoxes) + " boxes or more a live square," +
		" the rows with a small-board share take that share, to the others' 100, in the rounds run next after greedy, and are in the default list (" + smallShares() + "); with threads only one thread's worth, the threads added running the usual shares"
}

// roundsParam switches the rounds off: the strategies then run one after
// another, each to the end of its share.
var roundsParam = solver.Param{Name: "rounds", Kind: solver.Bool, Default: "1",
	Doc: "run the FESS strategies in slices of growing length, each resumed where it paused, a stalled one yielding its turns (solver.Portfolio's rounds); 0: one after another, each to the end of its share"}

// earlyRounds: under a longer time limit the rounds begin as a run of this
// limit, the one the shares were measured at, and the shares grow with the
// limit once the run has gone on for it (solver.Portfolio.Early), so that
// a longer limit solves no level later (docs/fess.md, The rounds).
const earlyRounds = 10 * time.Second

// portfolio runs the strategies of opts as the members of a
// solver.Portfolio. Without a time or node limit only the unlimited
// strategy runs (or the first listed, when it is not listed), to the end.
func portfolio(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	list, err := opts.List(strategiesParam)
	if err != nil {
		return solver.Result{}, err
	}
	if _, err := opts.Bool(piCorralParam); err != nil {
		return solver.Result{}, err
	}
	if _, err := opts.Real(backwardParam); err != nil {
		return solver.Result{}, err
	}
	if _, err := opts.Bool(backPlanParam); err != nil {
		return solver.Result{}, err
	}
	g := new(engine)
	if err := g.openGuide(opts); err != nil {
		return solver.Result{}, err
	}
	if g.guide != nil && opts.Budget.Memory > 0 { // the guide's table, read once and shared, comes out of the budget
		held := 4 * int64(len(g.guide.W))
		if held >= opts.Budget.Memory {
			return solver.Result{Status: solver.MemoryLimit, Stats: solver.Stats{Bytes: held}}, nil
		}
		opts.Budget.Memory -= held
	}
	inRounds, err := opts.Bool(roundsParam)
	if err != nil {
		return solver.Result{}, err
	}
	var on []string
	for _, n := range strings.Split(list, ",") {
		on = append(on, strings.TrimSpace(n))
	}
	limited := opts.Budget.Time > 0 || opts.Budget.Nodes > 0
	if !limited {
		listed := on
		on = on[:1]
		for _, s := range strategies {
			if s.unlimited && slices.Contains(listed, s.name) {
				on = []string{s.name}
			}
		}
	}
	own := map[string]string{}
	for k, v := range opts.Params {
		if k != strategiesParam.Name && k != roundsParam.Name {
			own[k] = v
		}
	}
	_, listed := opts.Params[strategiesParam.Name]
	tables := &levelTables{time: opts.Budget.Time}
	if inRounds {
		tables.time = min(tables.time, earlyRounds) // the deadlock table as in a run of earlyRounds, which this one begins as
	}
	members := membersOf(strategies, on, own, inRounds && limited, tables)
	isSmall := limited && small(l)
	members = boardShares(strategies, members, isSmall, listed, opts.Threads)
	if isSmall && inRounds {
		members = smallFirst(strategies, members)
	}
	p := solver.Portfolio{Members: members}
	if inRounds {
		p.Early = earlyRounds
	}
	return p.Solve(ctx, l, opts)
}

// boardShares returns members (the rows of table) with the shares of
// their board: on a small one (isSmall) the rows with a small-board share
// take it, those not on taking it only when the list was not given
// (listed); with more than one thread the threads added run a board's
// usual shares (addedThreads).
func boardShares(table []strategy, members []solver.Member, isSmall, listed bool, threads int) []solver.Member {
	normal := slices.Clone(members)
	lateShares(table, normal)
	if !isSmall {
		return normal
	}
	for i, s := range table {
		if s.smallShare > 0 && (members[i].Share > 0 || !listed) {
			members[i].Share = float64(s.smallShare)
		}
	}
	lateShares(table, members)
	// The rounds run no more threads than members with a share.
	running := 0
	for i := range members {
		if members[i].Share > 0 || normal[i].Share > 0 {
			running++
		}
	}
	if k := min(threads, running); k > 1 {
		addedThreads(table, members, normal, k)
	}
	return members
}

// smallFirst returns members (the rows of table) in the order the rounds
// run them on a small board: the rows that run once first, as everywhere,
// then the rows with a small-board share, then the others in table order.
// There bigreedy has nine tenths of the rounds and solves most levels
// sooner second than after the FESS strategies' first slices; on a larger
// board, with a quarter, it made XSokoban slower second
// (docs/measurements.md, "Small boards").
func smallFirst(table []strategy, members []solver.Member) []solver.Member {
	var once, small, rest []solver.Member
	for i, m := range members {
		switch {
		case m.Resumable == nil:
			once = append(once, m)
		case table[i].smallShare > 0:
			small = append(small, m)
		default:
			rest = append(rest, m)
		}
	}
	return slices.Concat(once, small, rest)
}

// lateShares sets the share of each late row on (members are the rows
// of table), and its share before it joins, to their percentages of the
// shares of the rows on that are not late, where there are any (alone, a
// late row starts at once).
func lateShares(table []strategy, members []solver.Member) {
	others := 0.0
	for i, s := range table {
		if s.late == 0 {
			others += members[i].Share
		}
	}
	for i, s := range table {
		if s.late > 0 && others > 0 {
			members[i].Share *= others / 100
			members[i].ShareBefore *= others / 100
		}
	}
}

// addedThreads sets the shares of members, a small board's, for k
// threads: one thread's worth runs them as one thread does, without the
// late rows, and the k-1 threads added run the shares any other board
// has (normal, the late rows' set), so that the strategies bigreedy's
// small-board share leaves short get the time the threads add.
func addedThreads(table []strategy, members, normal []solver.Member, k int) {
	own, other := 0.0, 0.0
	for i, s := range table {
		if s.late == 0 {
			own += members[i].Share
		}
		other += normal[i].Share
	}
	if own == 0 || other == 0 {
		return
	}
	for i, s := range table {
		first := members[i].Share / own
		if s.late > 0 {
			first = 0
		}
		members[i].Share = 100 * (first + float64(k-1)*normal[i].Share/other)
	}
}

// smallShares lists the rows' small-board shares, for the documentation.
func smallShares() string {
	var rows []string
	for _, s := range strategies {
		if s.smallShare > 0 {
			rows = append(rows, fmt.Sprintf("%s %d", s.name, s.smallShare))
		}
	}
	return strings.Join(rows, ", ")
}

// smallBoard is the number of squares below which a board is small: there
// bigreedy alone solved as many levels as the FESS strategies together or
// more, most of them sooner, and above it fewer (docs/measurements.md,
// "small boards"), so on a small board it takes its smallShare.
const smallBoard = 60

// denseBoard and denseBoxes make a board of fewer than denseBoard squares
// small too when it has at least denseBoxes boxes per live square (one a
// box can stand on and still reach a goal): there bigreedy's share solved
// levels the FESS strategies' did not, as many or more than it lost, and
// sooner (docs/measurements.md, "small boards"; on larger dense boards no
// run solved a level either way).
const (
	denseBoard = 250
	denseBoxes = 0.32
)

// small reports whether l's board has fewer than smallBoard squares the
// player can reach, or is dense (denseBoard, denseBoxes); a level that
// does not index is not small (its members say why).
func small(l *level.Level) bool {
	b, err := sokoban.NewBoard(l)
	if err != nil || b.N >= denseBoard {
		return false
	}
	if b.N < smallBoard {
		return true
	}
	live := 0
	for _, dead := range deadlock.DeadSquares(b) {
		if !dead {
			live++
		}
	}
	return float64(b.Boxes()) >= denseBoxes*float64(live)
}

// membersOf returns the rows of table as the portfolio's members, in
// table order (member i gets seed Seed+i): those named in on with their
// shares, the others with none; in the rounds (inRounds) as members that
// resume where they paused, where their search kind can, and whose
// engines share the level's tables.
func membersOf(table []strategy, on []string, own map[string]string, inRounds bool, tables *levelTables) []solver.Member {
	members := make([]solver.Member, len(table))
	for i := range table {
		s := &table[i]
		members[i] = s.search.member(s, own, inRounds)
		switch m := members[i].Resumable.(type) {
		case *member:
			m.tables = tables
		case *search.BiGreedyMember:
			m.Tables = tables.tableOf // the engines' deadlock table, built once
		}
		members[i].Name = s.name
		if slices.Contains(on, s.name) {
			members[i].Share = float64(s.share)
		}
		if s.late > 0 && members[i].Resumable != nil {
			members[i].Late, members[i].ShareBefore = s.late, float64(s.shareBefore)
		}
	}
	return members
}
