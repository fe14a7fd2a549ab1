package lts

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"soko/deadlock"
	"soko/generate"
	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
	"soko/verify"
)

// randomModel returns a model of 2^bits rows with random weights in
// [-scale, scale] on about a tenth of its rows.
func randomModel(bits uint, scale float64, seed uint64) *Model {
	m := NewModel(bits)
	rng := rand.New(rand.NewPCG(seed, 1))
	for r := range 1 << bits {
		if rng.IntN(10) == 0 {
			for a := range Actions {
				m.W[r*Actions+a] = float32((2*rng.Float64() - 1) * scale)
			}
		}
	}
	return m
}

// smallLevels are generated 7×7 levels of two boxes, every one solvable
// (its construction is a solution).
func smallLevels(t *testing.T, n int) []*level.Level {
	t.Helper()
	var ls []*level.Level
	for i := 1; i <= n; i++ {
		g, err := generate.One(context.Background(), generate.Config{Width: 7, Height: 7, Boxes: 2, Seed: 5}, i)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, g.Level)
	}
	return ls
}

// TestPolicyIsDistribution: for every set of legal moves and any weights,
// the policy is a probability distribution over the legal moves, each at
// least the uniform share.
func TestPolicyIsDistribution(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range []*Model{nil, NewModel(10), randomModel(10, 30, 7)} {
		for legal := uint8(1); legal < 1<<Actions; legal++ {
			rows := make([]uint32, NumContexts)
			for i := range rows {
				rows[i] = uint32(rng.IntN(1 << 10))
			}
			var pr [Actions]float64
			m.Policy(rows, legal, &pr)
			sum, k := 0.0, 0
			for a := range Actions {
				if legal&(1<<a) != 0 {
					k++
				}
			}
			for a := range Actions {
				switch {
				case legal&(1<<a) == 0 && pr[a] != 0:
					t.Errorf("legal %04b: illegal move %d has probability %v", legal, a, pr[a])
				case legal&(1<<a) != 0 && (pr[a] < Uniform/float64(k)*(1-1e-12) || pr[a] > 1):
					t.Errorf("legal %04b: move %d has probability %v", legal, a, pr[a])
				}
				sum += pr[a]
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("legal %04b: probabilities sum to %v", legal, sum)
			}
		}
	}
}

// TestSaveLoad: a model written and read back is the same, writes the
// same bytes again, and a changed, truncated or foreign file is refused
// with ErrFormat.
func TestSaveLoad(t *testing.T) {
	m := randomModel(12, 2, 9)
	path := filepath.Join(t.TempDir(), "m.bin")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bits != m.Bits || len(got.W) != len(m.W) {
		t.Fatalf("read a table of 2^%d rows, %d weights; wrote 2^%d, %d", got.Bits, len(got.W), m.Bits, len(m.W))
	}
	for i := range m.W {
		if got.W[i] != m.W[i] {
			t.Fatalf("weight %d read as %v, written %v", i, got.W[i], m.W[i])
		}
	}
	var a, b bytes.Buffer
	if err := m.Write(&a); err != nil {
		t.Fatal(err)
	}
	if err := got.Write(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || !IsModel(a.Bytes()) {
		t.Error("the model read back writes other bytes")
	}
	data := a.Bytes()
	flipped := bytes.Clone(data)
	flipped[len(flipped)/2] ^= 1
	for name, bad := range map[string][]byte{
		"flipped bit": flipped,
		"truncated":   data[:len(data)-7],
		"header only": data[:20],
		"foreign":     []byte("SOKONN\r\n and more bytes"),
	} {
		if _, err := Read(bytes.NewReader(bad)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v, want ErrFormat", name, err)
		}
	}
}

// solved returns the trajectories of the levels LTS with the uniform policy
// solves within 20,000 expansions.
func solved(t *testing.T, ls []*level.Level) []*trajectory {
	t.Helper()
	var ts []*trajectory
	for _, l := range ls {
		res, _, err := Search(context.Background(), l, nil, solver.Options{Budget: solver.Budget{Nodes: 20000}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status == solver.Solved {
			sym, err := symmetric(l, res.Moves)
			if err != nil {
				t.Fatal(err)
			}
			ts = append(ts, sym...)
		}
	}
	if len(ts) == 0 {
		t.Fatal("no level solved")
	}
	return ts
}

// TestTrainingReducesLoss: gradient steps on a fixed set of solutions lower
// their log loss, every epoch, from log-uniform at the start.
func TestTrainingReducesLoss(t *testing.T) {
	ts := solved(t, smallLevels(t, 6))
	m := NewModel(16)
	ctx := context.Background()
	prev, err := meanLoss(ctx, m, ts)
	if err != nil {
		t.Fatal(err)
	}
	if prev < 0.5 {
		t.Fatalf("untrained log loss %.3f; the uniform policy's is above 0.69 a move", prev)
	}
	first := prev
	for i := range 3 {
		if _, _, err := epoch(ctx, m, ts, DefaultRate); err != nil {
			t.Fatal(err)
		}
		loss, err := meanLoss(ctx, m, ts)
		if err != nil {
			t.Fatal(err)
		}
		if loss >= prev {
			t.Errorf("epoch %d: log loss %.4f, %.4f before", i+1, loss, prev)
		}
		prev = loss
	}
	if prev > first/2 {
		t.Errorf("log loss %.4f after 3 epochs, %.4f before: not halved", prev, first)
	}
}

// TestSolvesAndBound: LTS with the uniform policy, a random one and one
// trained hard on these levels' own solutions solves small levels; every
// solution replays (solver.Run verifies it), and the expansions never
// exceed the reported bound d(n*)/π(n*) — the theorem. The trained policy
// walks nearly straight to the solution, where the bound is close to the
// expansions, so a search that expanded a node past the solution's cost,
// or a policy whose probabilities summed to more than 1, would break it.
func TestSolvesAndBound(t *testing.T) {
	ls := append(smallLevels(t, 8), testlevel.Resolve(t, "microban:1-5")...)
	dir := t.TempDir()
	random := filepath.Join(dir, "random.bin")
	if err := randomModel(DefaultBits, 3, 11).Save(random); err != nil {
		t.Fatal(err)
	}
	taught := NewModel(DefaultBits)
	ts := solved(t, ls)
	for range 20 {
		if _, _, err := epoch(context.Background(), taught, ts, DefaultRate); err != nil {
			t.Fatal(err)
		}
	}
	teacher := filepath.Join(dir, "taught.bin")
	if err := taught.Save(teacher); err != nil {
		t.Fatal(err)
	}
	tight := 0.0
	for _, model := range []string{"", random, teacher} {
		for i, l := range ls {
			opts := solver.Options{Budget: solver.Budget{Nodes: 200000}, Model: model}
			res, err := solver.Run(context.Background(), Solver{}, l, opts)
			if err != nil {
				t.Fatalf("level %d, model %q: %v", i+1, model, err)
			}
			if res.Status != solver.Solved {
				t.Errorf("level %d, model %q: %v after %d expansions", i+1, model, res.Status, res.Stats.Expanded)
				continue
			}
			if rep := verify.Replay(l, res.Moves); !rep.Solved {
				t.Errorf("level %d: the solution does not replay: %s", i+1, rep.Reason)
			}
			bound, ok := res.Stats.Counts[BoundCount]
			if !ok || res.Stats.Expanded > bound {
				t.Errorf("level %d, model %q: %d expansions, bound %d (reported %v)", i+1, model, res.Stats.Expanded, bound, ok)
			}
			if model == teacher {
				tight = max(tight, float64(res.Stats.Expanded)/float64(bound))
			}
			if _, uniform := res.Stats.Counts[WithoutModel]; uniform != (model == "") {
				t.Errorf("level %d, model %q: without_model reported %v", i+1, model, uniform)
			}
		}
	}
	if tight < 0.2 {
		t.Errorf("with the taught policy the expansions reach at most %.3f of the bound: the test would not see a bound a few times too small", tight)
	}
}

// TestBudgetAndCancel: the search stops at its node budget, at its memory
// budget, and at once on a cancelled context.
func TestBudgetAndCancel(t *testing.T) {
	l := testlevel.Resolve(t, "boxoban-medium-valid-000:1")[0]
	for _, n := range []int64{1, 37, 500} {
		res, _, err := Search(context.Background(), l, nil, solver.Options{Budget: solver.Budget{Nodes: n}})
		if err != nil || res.Status != solver.NodeLimit || res.Stats.Expanded != n {
			t.Errorf("budget %d: %v after %d expansions, error %v", n, res.Status, res.Stats.Expanded, err)
		}
	}
	// The tables may pass Tables() by one growth of a slice, into the
	// headroom kept for it, never the budget.
	mem := solver.Budget{Memory: 1 << 20}
	res, _, err := Search(context.Background(), l, nil, solver.Options{Budget: mem})
	if err != nil || res.Status != solver.MemoryLimit || res.Stats.Bytes > mem.Memory {
		t.Errorf("memory budget 1 MiB: %v holding %d bytes, error %v", res.Status, res.Stats.Bytes, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, _, err = Search(ctx, l, nil, solver.Options{})
	if err != nil || res.Status != solver.Cancelled || res.Stats.Expanded > 0 {
		t.Errorf("cancelled: %v after %d expansions, error %v", res.Status, res.Stats.Expanded, err)
	}
}

// TestNoSolutionIsProved: a level whose boxes stand frozen in a block off
// their goals, where no push is possible, ends in no solution once every
// player square is expanded.
func TestNoSolutionIsProved(t *testing.T) {
	stuck := testlevel.Parse(t, "#######\n#@$$ .#\n# $$ .#\n#    .#\n#    .#\n#######\n")
	res, _, err := Search(context.Background(), stuck, nil, solver.Options{})
	if err != nil || res.Status != solver.NoSolution || res.Stats.Expanded == 0 {
		t.Errorf("%v after %d expansions, error %v; want no solution", res.Status, res.Stats.Expanded, err)
	}
}

// TestLegalLeavesOutProvedDeadlocks: the push that seals a box in a
// room off the goals (a corral, not a frozen box) is not a move the search
// makes; the steps beside it are.
func TestLegalLeavesOutProvedDeadlocks(t *testing.T) {
	l := testlevel.Parse(t, "#########\n##     ##\n##  $  ##\n#### ####\n#   $   #\n#  .@.  #\n#########\n")
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	p := b.Start()
	push := sokoban.Push{Box: b.Next(p.Player(), level.Up), Dir: level.Up}
	frozen := deadlock.NewChecker(b, deadlock.DeadSquares(b), deadlock.Core())
	if frozen.Deadlocked(p, p.Apply(push)) {
		t.Fatal("bad test level: the frozen-box rule alone finds the deadlock")
	}
	p.Undo(push)
	want := uint8(1<<level.Left | 1<<level.Right)
	if got := NewBoard(b, searchPrune).Legal(p); got != want {
		t.Errorf("Legal = %04b, want %04b (left and right, not the sealing push up)", got, want)
	}
}

// TestSymmetries: a solution turned by each symmetry solves the turned
// level, and the eight levels differ.
func TestSymmetries(t *testing.T) {
	l := testlevel.Resolve(t, "microban:3")[0]
	res, _, err := Search(context.Background(), l, nil, solver.Options{Budget: solver.Budget{Nodes: 100000}})
	if err != nil || res.Status != solver.Solved {
		t.Fatalf("%v, %v", res.Status, err)
	}
	seen := map[string]bool{}
	for k := range Symmetries {
		tl, tm, err := transform(l, res.Moves, k)
		if err != nil {
			t.Fatal(err)
		}
		if rep := verify.Replay(tl, tm); !rep.Solved {
			t.Errorf("symmetry %d: the turned solution does not solve the turned level: %s", k, rep.Reason)
		}
		seen[level.FormatLURD(tm)] = true
	}
	if len(seen) != Symmetries {
		t.Errorf("%d distinct turned solutions of %d", len(seen), Symmetries)
	}
}

// meanLoss is the mean log loss, −log p(move), over the trajectories'
// moves, p the model's softmax without the uniform mixture.
func meanLoss(ctx context.Context, m *Model, ts []*trajectory) (float64, error) {
	sum, n := 0.0, 0
	var rows []uint32
	var pr [Actions]float64
	for _, t := range ts {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		err := walk(t, m.Bits, rows, func(rows []uint32, legal uint8, taken int) error {
			m.softmax(rows, legal, &pr)
			sum -= math.Log(max(pr[taken], 1e-300))
			n++
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	return sum / float64(max(n, 1)), nil
}

// TestProgressBoard: the progress events draw the most promising position,
// the expanded one with the most boxes on goals, as the other searches do.
func TestProgressBoard(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:24")[0]
	var board []string
	var detail string
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := solver.Options{
		Budget: solver.Budget{Time: time.Minute},
		Progress: func(p solver.Progress) {
			if len(p.Board) > 0 {
				board, detail = p.Board, p.Detail
				cancel() // the first event with a board is enough
			}
		},
	}
	if _, err := solver.Run(ctx, Solver{}, l, opts); err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(board, ""); len(board) != l.Height || strings.Count(text, "$")+strings.Count(text, "*") == 0 ||
		!strings.HasPrefix(detail, "boxes on goals ") {
		t.Errorf("progress board (%q):\n%s", detail, strings.Join(board, "\n"))
	}
}

// The model check made before any level reads the model into the cache
// the levels' searches take it from, so that no level's time goes to
// reading it (a table of 2^28 rows takes seconds).
func TestCheckModelReadsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.bin")
	if err := randomModel(12, 2, 9).Save(path); err != nil {
		t.Fatal(err)
	}
	e, ok := solver.Lookup("lts")
	if !ok {
		t.Fatal("lts not registered")
	}
	if err := e.CheckModel(path); err != nil {
		t.Fatal(err)
	}
	cache.Lock()
	checked := cache.m
	cache.Unlock()
	if m, err := cached(path); err != nil || checked == nil || m != checked {
		t.Errorf("the levels' model %p (%v) is not the one the check read, %p", m, err, checked)
	}
}

// A round that solves nothing new doubles the budget whatever MinNew says,
// so that training with MinNew 0 ends at MaxBudget rather than repeating
// the same round for ever.
func TestTrainMinNewZeroEnds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, rep, err := Train(ctx, TrainOptions{Levels: 4, Seed: 1, Bits: 10, Budget: 1, MaxBudget: 8, Epochs: 1, MinNew: 0, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if last := rep.Rounds[len(rep.Rounds)-1]; last.Budget != 8 && last.Solved != 4 {
		t.Errorf("training ended at budget %d with %d of 4 solved, after %d rounds", last.Budget, last.Solved, len(rep.Rounds))
	}
}

// A model whose table would take more than the process may use is refused
// with an error, not allocated: the file is small, the table dense.
func TestReadRefusesTableOverMemory(t *testing.T) {
	var b bytes.Buffer
	if err := NewModel(12).Write(&b); err != nil {
		t.Fatal(err)
	}
	need := int64(4*Actions) << 12 // the dense table of 2^12 rows
	old := debug.SetMemoryLimit(need)
	defer debug.SetMemoryLimit(old)
	if _, err := Read(bytes.NewReader(b.Bytes())); err != nil {
		t.Fatalf("a table within the limit: %v", err)
	}
	debug.SetMemoryLimit(need / 2)
	if _, err := Read(bytes.NewReader(b.Bytes())); err == nil || !strings.Contains(err.Error(), "a table of 2^12 rows takes") {
		t.Errorf("a table over the limit: %v", err)
	}
}
