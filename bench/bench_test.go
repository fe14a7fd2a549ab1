package bench

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "soko/fess" // registers fess (the strength preset)
	"soko/level"
	"soko/levels"
	_ "soko/search" // registers bfs and astar
)

// testJobs: bfs and astar on Microban 1-10 at two node budgets and two
// seeds: 80 fast, deterministic runs.
func testJobs(t *testing.T) []Job {
	t.Helper()
	return slices.Collect(testPlan(t).Jobs(nil))
}

func testPlan(t *testing.T) *Plan {
	t.Helper()
	lvls, err := levels.Resolve("microban:1-10", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan([]SolverSpec{{Name: "bfs"}, {Name: "astar"}}, lvls, nil, Budgets(nil, []int64{50, 5000}, nil), []uint64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runInto runs jobs into the results file at path, resuming it.
func runInto(t *testing.T, ctx context.Context, path string, jobs []Job, workers int, after func(n int)) (Summary, int, error) {
	t.Helper()
	res, err := OpenResults(path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var todo []Job
	for _, j := range jobs {
		if !res.Done(j.Key()) {
			todo = append(todo, j)
		}
	}
	n := 0
	r := &Runner{Workers: workers, Write: func(rec Record) error {
		if err := res.Write(rec); err != nil {
			return err
		}
		n++
		if after != nil {
			after(n)
		}
		return nil
	}}
	sum, err := r.runList(ctx, todo)
	return sum, len(todo), err
}

func readKeys(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadRecords(f, path)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]int{}
	for _, r := range recs {
		keys[r.Key]++
	}
	return keys
}

// Kill a benchmark halfway (cancel it, then leave a half-written line as a
// hard kill would) and resume it: no run is lost or repeated.
func TestResume(t *testing.T) {
	jobs := testJobs(t)
	path := filepath.Join(t.TempDir(), "results.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	sum, todo, err := runInto(t, ctx, path, jobs, 2, func(n int) {
		if n == 25 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: err = %v, want context.Canceled", err)
	}
	if todo != len(jobs) || sum.Run < 25 || sum.Run >= len(jobs) || sum.NotRun != len(jobs)-sum.Run {
		t.Fatalf("first run: %+v of %d jobs", sum, todo)
	}
	first := readKeys(t, path)
	if len(first) != sum.Run {
		t.Fatalf("file has %d runs, summary says %d", len(first), sum.Run)
	}
	// A hard kill in the middle of a write.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"key":"bfs|microban:9|`)
	f.Close()

	sum2, todo2, err := runInto(t, context.Background(), path, jobs, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if todo2 != len(jobs)-len(first) || sum2.Run != todo2 {
		t.Fatalf("resume ran %d of %d pending; %d were done before, %d jobs", sum2.Run, todo2, len(first), len(jobs))
	}
	all := readKeys(t, path)
	if len(all) != len(jobs) {
		t.Fatalf("after resume: %d runs, want %d", len(all), len(jobs))
	}
	for _, j := range jobs {
		if all[j.Key()] != 1 {
			t.Errorf("run %s appears %d times", j.Key(), all[j.Key()])
		}
	}
	// Once more: nothing left to do.
	sum3, todo3, err := runInto(t, context.Background(), path, jobs, 2, nil)
	if err != nil || todo3 != 0 || sum3.Run != 0 {
		t.Fatalf("third run: %+v, %d pending, %v", sum3, todo3, err)
	}
}

// Shard 3 ways and merge: the same runs and the same summary as one run.
func TestShardMerge(t *testing.T) {
	plan := testPlan(t)
	jobs := slices.Collect(plan.Jobs(nil))
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	if _, _, err := runInto(t, context.Background(), whole, jobs, 2, nil); err != nil {
		t.Fatal(err)
	}
	var parts []string
	seen := map[string]int{}
	for i := range 3 {
		shard := slices.Collect(plan.Shard(i, 3).Jobs(nil))
		if int64(len(shard)) != plan.Shard(i, 3).Len() {
			t.Fatalf("shard %d: %d jobs, Len %d", i, len(shard), plan.Shard(i, 3).Len())
		}
		for _, j := range shard {
			seen[j.Key()]++
		}
		p := filepath.Join(dir, "shard"+string(rune('0'+i))+".jsonl")
		if _, _, err := runInto(t, context.Background(), p, shard, 1, nil); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	if len(seen) != len(jobs) {
		t.Fatalf("shards cover %d of %d jobs", len(seen), len(jobs))
	}
	for k, n := range seen {
		if n != 1 {
			t.Fatalf("job %s in %d shards", k, n)
		}
	}
	var merged, log bytes.Buffer
	runs, dups, err := Merge(&merged, &log, append(parts, parts[0])...) // a shard twice: its runs are kept once
	if err != nil || runs != len(jobs) || int64(dups) != plan.Shard(0, 3).Len() {
		t.Fatalf("merge: %d runs, %d dups, %v", runs, dups, err)
	}
	if want := fmt.Sprintf("%d duplicate records dropped: %d identical to the run kept, 0 differing", dups, dups); !strings.Contains(log.String(), want) {
		t.Errorf("merge said %q, want %q", log.String(), want)
	}
	mergedRecs, err := ReadRecords(&merged, "merged")
	if err != nil {
		t.Fatal(err)
	}
	wholeRecs, err := ReadFiles(nil, whole)
	if err != nil {
		t.Fatal(err)
	}
	// The same runs: each once, bfs among them.
	if len(mergedRecs) != len(wholeRecs) {
		t.Fatalf("%d runs sharded and merged, %d unsharded", len(mergedRecs), len(wholeRecs))
	}
	if !slices.ContainsFunc(wholeRecs, func(r Record) bool { return r.Solver == "bfs" }) {
		t.Fatal("no bfs run")
	}
	// Run by run: the same outcome.
	byKey := map[string]Record{}
	for _, r := range wholeRecs {
		byKey[r.Key] = r
	}
	for _, r := range mergedRecs {
		w, ok := byKey[r.Key]
		if !ok {
			t.Errorf("%s: not in the unsharded results", r.Key)
			continue
		}
		delete(byKey, r.Key)
		if w.Status != r.Status || w.Pushes != r.Pushes || w.Expanded != r.Expanded || w.Solution != r.Solution {
			t.Errorf("%s: unsharded %s/%d pushes, sharded %s/%d", r.Key, w.Status, w.Pushes, r.Status, r.Pushes)
		}
	}
}

func TestJobsOnce(t *testing.T) {
	lvls, err := levels.ResolveAll(context.Background(), []string{"microban:1-3"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lvls = append(lvls, lvls[1]) // a level twice, as a caller of NewPlan may give it (levels refuses it)
	jobs := planJobs(t, []SolverSpec{{Name: "bfs"}}, lvls, Budgets(nil, []int64{10, 10}, nil), []uint64{1, 1, 2})
	if len(jobs) != 6 {
		t.Fatalf("%d jobs, want 3 levels x 1 budget x 2 seeds", len(jobs))
	}
	// Seeds outermost, solvers innermost: a run cut short has every solver
	// on the same levels.
	jobs = planJobs(t, []SolverSpec{{Name: "bfs"}, {Name: "astar"}}, lvls[:2], Budgets(nil, []int64{10}, nil), []uint64{1, 2})
	var order []string
	for _, j := range jobs {
		order = append(order, fmt.Sprintf("%d %s %s", j.Seed, j.ID, j.Solver.Name))
	}
	want := []string{
		"1 microban:1 bfs", "1 microban:1 astar", "1 microban:2 bfs", "1 microban:2 astar",
		"2 microban:1 bfs", "2 microban:1 astar", "2 microban:2 bfs", "2 microban:2 astar",
	}
	if !slices.Equal(order, want) {
		t.Errorf("order %q, want %q", order, want)
	}
}

func TestParseShard(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "JOB_COMPLETION_INDEX" {
				return v
			}
			return ""
		}
	}
	for _, c := range []struct {
		spec, env string
		i, n      int
		ok        bool
	}{
		{"0/3", "", 0, 3, true},
		{"2/3", "7", 2, 3, true},
		{"3/3", "", 0, 0, false},
		{"-1/3", "", 0, 0, false},
		{"3", "1", 1, 3, true},
		{"/3", "2", 2, 3, true},
		{"3", "", 0, 0, false},
		{"3", "3", 0, 0, false},
		{"0/0", "", 0, 0, false},
		{"x", "", 0, 0, false},
		// soko's number syntax (solver.IsDecimal): an exponent is read,
		// a sign, a blank or a fraction is refused.
		{"1e0/2e0", "", 1, 2, true},
		{"+1/+4", "", 0, 0, false},
		{"1/+4", "", 0, 0, false},
		{"+1/4", "", 0, 0, false},
		{"-0/4", "", 0, 0, false},
		{"+4", "1", 0, 0, false},
		{"4", "+1", 0, 0, false},
		{"4", " 1", 0, 0, false},
		{" 1/4", "", 0, 0, false},
		{"1.5/4", "", 0, 0, false},
		{"0x1/4", "", 0, 0, false},
		{"1/1e10", "", 0, 0, false},
	} {
		i, n, err := ParseShard(c.spec, env(c.env))
		if (err == nil) != c.ok || (c.ok && (i != c.i || n != c.n)) {
			t.Errorf("ParseShard(%q) with JOB_COMPLETION_INDEX=%q = %d, %d, %v", c.spec, c.env, i, n, err)
		}
	}
}

func TestReadRecordsPartialLine(t *testing.T) {
	in := `{"key":"a","solver":"bfs","level":"x:1","status":"solved","verified":true}` + "\n" + `{"key":"b","sol`
	recs, err := ReadRecords(strings.NewReader(in), "in")
	if err != nil || len(recs) != 1 || recs[0].Key != "a" {
		t.Fatalf("got %v, %v", recs, err)
	}
	if _, err := ReadRecords(strings.NewReader("garbage\n"), "in"); err == nil || !strings.Contains(err.Error(), "in:1") {
		t.Fatalf("garbage line: %v", err)
	}
}

func TestSolverSpec(t *testing.T) {
	s, err := ParseSolverSpec("astar:w=2:p=1")
	if err != nil || s.Name != "astar" || s.Params["w"] != "2" || s.Label() != "astar(p=1,w=2)" {
		t.Fatalf("%+v %v", s, err)
	}
	if err := s.Check(); err == nil {
		t.Fatal("astar takes no parameter w, but Check accepted it")
	}
	if _, err := ParseSolverSpec("astar:w"); err == nil {
		t.Fatal("accepted astar:w")
	}
	for _, twice := range []string{"wastar:w=2:w=3", "fess:optimize=off:optimize=1s"} {
		if _, err := ParseSolverSpec(twice); err == nil || !strings.Contains(err.Error(), "given twice") {
			t.Errorf("%s: %v, want a parameter given twice", twice, err)
		}
	}
	// A list's items joined by + (commas part the solvers of --algo);
	// a + in any other value stays.
	s, err = ParseSolverSpec("fess:strategies=plan+sink")
	if err != nil || s.Params["strategies"] != "plan,sink" || s.Check() != nil {
		t.Fatalf("fess:strategies=plan+sink: %+v %v", s, err)
	}
	if s, err := ParseSolverSpec("wastar:w=1e+2"); err != nil || s.Params["w"] != "1e+2" {
		t.Fatalf("wastar:w=1e+2: %+v %v", s, err)
	}
	plan, _ := ParseSolverSpec("fess:strategies=plan")
	if h := ListHint(plan, "sink"); !strings.Contains(h, "fess:strategies=plan+sink") {
		t.Fatalf("the hint for fess:strategies=plan,sink: %q", h)
	}
	if h := ListHint(plan, "nothing"); h != "" {
		t.Fatalf("a hint for a part that is no item: %q", h)
	}
	if err := (SolverSpec{Name: "no-such-solver"}).Check(); err == nil || !strings.Contains(err.Error(), "known: ") {
		t.Fatalf("unknown solver: %v", err)
	}
	if err := (SolverSpec{Name: "ASTAR"}).Check(); err == nil || !strings.Contains(err.Error(), `did you mean "astar"?`) {
		t.Fatalf("unknown solver in capitals: %v", err)
	}
}

func TestExternal(t *testing.T) {
	script, err := filepath.Abs("testdata/fake-solver.sh")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := ParseExternal("fake=sh " + script + " {level} {solution}")
	if err != nil {
		t.Fatal(err)
	}
	lvls, err := levels.Resolve("microban:1-5", nil)
	if err != nil {
		t.Fatal(err)
	}
	jobs := planJobs(t, []SolverSpec{spec}, lvls, []Budget{{Time: 700 * time.Millisecond}}, []uint64{1})
	got := map[string]Record{}
	r := &Runner{Workers: 5, Write: func(rec Record) error { got[rec.Level] = rec; return nil }}
	start := time.Now()
	if _, err := r.runList(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("the time limit did not stop the program: %s", el)
	}
	want := []struct {
		level, status string
		pushes        int
		errPart       string
	}{
		{"microban:1", "solved", 8, ""},
		{"microban:2", "solved", 3, ""},
		{"microban:3", StatusError, 0, "invalid solution"},
		{"microban:4", "time limit", 0, ""},
		{"microban:5", StatusFailed, 0, "cannot solve this"},
	}
	for _, w := range want {
		rec := got[w.level]
		if rec.Status != w.status || rec.Pushes != w.pushes || !strings.Contains(rec.Error, w.errPart) || rec.Solved() != (w.status == "solved") {
			t.Errorf("%s: got status %q pushes %d error %q, want %q %d %q", w.level, rec.Status, rec.Pushes, rec.Error, w.status, w.pushes, w.errPart)
		}
		if rec.Solver != "fake" || rec.External == "" {
			t.Errorf("%s: solver %q external %q", w.level, rec.Solver, rec.External)
		}
	}
	if got["microban:2"].Solution != "rddLruulDuullddR" {
		t.Errorf("microban:2 solution %q", got["microban:2"].Solution)
	}
	if got["microban:4"].WallS < 0.6 || got["microban:4"].WallS > 5 {
		t.Errorf("microban:4 ran %.2fs under a 0.7s limit", got["microban:4"].WallS)
	}
	for _, bad := range []string{"fake", "=cmd {level}", "fake=cmd", "a b=cmd {level}", "bfs=echo R {level}"} { // bfs: a solver of soko's
		if _, err := ParseExternal(bad); err == nil {
			t.Errorf("ParseExternal(%q) accepted it", bad)
		}
	}
}

// runExternal runs the external solver NAME=COMMAND once on the first of
// lvls, with 20 s, and returns its record.
func runExternal(t *testing.T, cmdline string, lvls []*level.Level) Record {
	t.Helper()
	spec, err := ParseExternal(cmdline)
	if err != nil {
		t.Fatal(err)
	}
	var rec Record
	r := &Runner{Workers: 1, Write: func(r Record) error { rec = r; return nil }}
	if _, err := r.runList(context.Background(), planJobs(t, []SolverSpec{spec}, lvls[:1], []Budget{{Time: 20 * time.Second}}, []uint64{1})); err != nil {
		t.Fatal(err)
	}
	return rec
}

// A {solution} file is held to the one cap for solutions,
// level.MaxSolutionText: at the cap it is read, one byte more is refused
// with an error saying so.
func TestExternalSolutionCap(t *testing.T) {
	lvls, err := levels.Resolve("microban:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	const sol = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	tooLong := func(n int) string {
		return fmt.Sprintf("invalid solution: the solution file has %d bytes, more than the %d allowed", n, level.MaxSolutionText)
	}
	for _, tt := range []struct {
		size          int
		cmd           string
		status, error string
	}{
		// The solution, then blanks up to size bytes.
		{level.MaxSolutionText, "(printf %[1]s; head -c %[2]d /dev/zero | tr '\\0' ' ') > {solution}", "solved", ""},
		{level.MaxSolutionText + 1, "(printf %[1]s; head -c %[2]d /dev/zero | tr '\\0' ' ') > {solution}", StatusError, tooLong(level.MaxSolutionText + 1)},
		// A sparse file of 1 GiB, refused without reading it all.
		{1 << 30, "printf %[1]s > {solution}; truncate -s %[3]d {solution}", StatusError, tooLong(1 << 30)},
	} {
		rec := runExternal(t, "fake="+fmt.Sprintf(tt.cmd, sol, tt.size-len(sol), tt.size)+" # {level}", lvls)
		if rec.Status != tt.status || !strings.Contains(rec.Error, tt.error) || (tt.status == "solved" && rec.Solution != sol) {
			t.Errorf("%d bytes: status %q error %q solution %.40q, want %q %q", tt.size, rec.Status, rec.Error, rec.Solution, tt.status, tt.error)
		}
	}
}

// A {solution} file is read as level files are, with a byte order mark;
// a solution whose letter case is wrong is counted by replay and recorded
// as it should be written, so that bench --sok files keep it.
func TestExternalSolutionForms(t *testing.T) {
	lvls, err := levels.Resolve("microban:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	const sol = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	for _, written := range []string{"\\357\\273\\277" + sol, strings.ToLower(sol), strings.ToUpper(sol)} {
		rec := runExternal(t, "fake=printf '"+written+"' > {solution} # {level}", lvls)
		if rec.Status != "solved" || rec.Solution != sol || rec.Pushes != 8 || rec.Moves != 33 {
			t.Errorf("%s: status %q error %q solution %q, %d pushes; want solved, %s, 8 pushes", written, rec.Status, rec.Error, rec.Solution, rec.Pushes, sol)
		}
	}
}

func TestPresets(t *testing.T) {
	for _, p := range Presets {
		if len(p.Solvers) == 0 || len(p.Levels) == 0 || len(p.Times)+len(p.Iterations) == 0 {
			t.Errorf("preset %s is incomplete", p.Name)
		}
		for _, s := range p.Solvers {
			if _, err := ParseSolverSpec(s); err != nil {
				t.Errorf("preset %s: %v", p.Name, err)
			}
		}
		for _, l := range p.Levels {
			if _, err := levels.Resolve(l, nil); err != nil {
				t.Errorf("preset %s: %v", p.Name, err)
			}
		}
	}
	p, err := LookupPreset("strength")
	if err != nil || len(p.Missing()) != 0 {
		t.Fatalf("strength preset: %v, missing %v", err, p.Missing())
	}
	if _, err := LookupPreset("nope"); err == nil {
		t.Fatal("found preset nope")
	}
}

// Merge says which duplicates differ from the run it kept, and where both
// are.
func TestMergeDifferingDuplicates(t *testing.T) {
	dir := t.TempDir()
	rec := func(status string, pushes int, wall float64) Record {
		r := Record{Solver: "astar", Level: "microban:1", LevelHash: "h", Budget: Budget{Time: time.Second}, Seed: 1,
			Status: status, Verified: status == "solved", Pushes: pushes, WallS: wall}
		r.Key = runKey(r.Solver, nil, 0, "", "", r.Level, r.LevelHash, r.Budget, r.Seed)
		return r
	}
	other := rec("solved", 5, 0.1)
	other.Level = "microban:2"
	other.Key = runKey(other.Solver, nil, 0, "", "", other.Level, other.LevelHash, other.Budget, other.Seed)
	write := func(name string, recs ...Record) string { return writeRecords(t, filepath.Join(dir, name), recs...) }
	a := write("a.jsonl", other, rec("solved", 8, 0.2))
	b := write("b.jsonl", rec("time limit", 0, 1.0), other)
	var out, log bytes.Buffer
	runs, dups, err := Merge(&out, &log, a, b)
	if err != nil || runs != 2 || dups != 2 {
		t.Fatalf("merge: %d runs, %d dups, %v", runs, dups, err)
	}
	for _, want := range []string{
		"astar|microban:1|h|t=1s|1 differs in pushes, status, verified, wall_s",
		"kept " + a + ":2 (solved, 8 pushes, 0.200 s)", "dropped " + b + ":1 (time limit)",
		"2 duplicate records dropped: 1 identical to the run kept, 1 differing",
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("merge said:\n%s\nwant %q in it", log.String(), want)
		}
	}
	if !strings.Contains(out.String(), `"status":"solved","verified":true,"pushes":8`) {
		t.Errorf("merge kept the wrong record:\n%s", out.String())
	}

	// One duplicate of one push: the counts are singular.
	c := write("c.jsonl", rec("solved", 1, 0.3))
	log.Reset()
	if _, dups, err := Merge(io.Discard, &log, a, c); err != nil || dups != 1 {
		t.Fatalf("merge: %d dups, %v", dups, err)
	}
	for _, want := range []string{"dropped " + c + ":1 (solved, 1 push, 0.300 s)", "1 duplicate record dropped: 0 identical to the run kept, 1 differing"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("merge said:\n%s\nwant %q in it", log.String(), want)
		}
	}
}

// writeRecords writes recs to a results file at path, and returns path.
func writeRecords(t *testing.T, path string, recs ...Record) string {
	t.Helper()
	var b bytes.Buffer
	w := NewJSONLWriter(&b)
	for _, r := range recs {
		w.Write(r)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Shards that typed one level file two ways (a path and a link to it)
// merge into one run per level, under the first spelling, with a key that
// resumes; a file typed once keeps its name, and one this machine cannot
// see is left as it is.
func TestMergeRespellsOneFile(t *testing.T) {
	dir := t.TempDir()
	lv := filepath.Join(dir, "x.xsb")
	if err := os.WriteFile(lv, []byte("#####\n#@$.#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.xsb")
	if err := os.Symlink(lv, link); err != nil {
		t.Skip(err)
	}
	rec := func(source string, index int) Record {
		r := Record{Solver: "astar", Level: levelID(source, index), LevelHash: "h", Budget: Budget{Time: time.Second}, Seed: 1,
			Status: "solved", Verified: true, Pushes: 1, WallS: 0.1}
		r.Key = r.RunKey()
		return r
	}
	write := func(name string, recs ...Record) string { return writeRecords(t, filepath.Join(dir, name), recs...) }
	gone := filepath.Join(dir, "gone.xsb")
	a := write("a.jsonl", rec(lv, 1), rec(gone, 1))
	b := write("b.jsonl", rec(link, 1), rec(link, 2), rec("microban", 1))
	var out, log bytes.Buffer
	runs, dups, err := Merge(&out, &log, a, b)
	if err != nil || runs != 4 || dups != 1 {
		t.Fatalf("merge: %d runs, %d dups, %v\n%s", runs, dups, err, log.String())
	}
	recs, err := ReadRecords(&out, "merged")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range recs {
		if r.Key != r.RunKey() {
			t.Errorf("%s: key %q, want %q", r.Level, r.Key, r.RunKey())
		}
		ids = append(ids, r.Level)
	}
	slices.Sort(ids)
	want := []string{gone + ":1", lv + ":1", lv + ":2", "microban:1"}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("merged levels %q, want %q", ids, want)
	}
	if !strings.Contains(log.String(), "1 level file typed another way") {
		t.Errorf("merge said:\n%s", log.String())
	}
}

// A plan of billions of runs is made without listing them: its length,
// its first jobs, a shard's jobs and the pending count of a resumed file
// come from the axes.
func TestPlanLazy(t *testing.T) {
	lvls, err := levels.Resolve("microban", nil)
	if err != nil {
		t.Fatal(err)
	}
	seeds := make([]uint64, 1_000_000)
	for i := range seeds {
		seeds[i] = uint64(i + 1)
	}
	solvers := []SolverSpec{{Name: "greedy"}, {Name: "astar"}, {Name: "bfs"}}
	budgets := Budgets([]time.Duration{time.Millisecond, 2 * time.Millisecond, 3 * time.Millisecond}, []int64{1}, nil)
	p, err := NewPlan(solvers, lvls, nil, budgets, seeds)
	if err != nil {
		t.Fatal(err)
	}
	const want = 1_000_000 * 3 * 155 * 3
	if p.Len() != want {
		t.Fatalf("Len %d, want %d", p.Len(), want)
	}
	var first []Job
	for j := range p.Jobs(nil) {
		if first = append(first, j); len(first) == 4 {
			break
		}
	}
	if first[0].Solver.Name != "greedy" || first[3].ID != "microban:2" || first[3].Seed != 1 {
		t.Errorf("first jobs out of order: %s %s, %s %s", first[0].Solver.Name, first[0].ID, first[3].Solver.Name, first[3].ID)
	}
	// Done keys: two of the plan (one of them in shard 1 of 2), one not.
	done := []string{first[0].Key(), first[1].Key(), "greedy|microban:1|" + first[0].Hash + "|n=7|1"}
	if got := p.Pending(done); got != want-2 {
		t.Errorf("Pending %d, want %d", got, want-2)
	}
	s := p.Shard(1, 2)
	if s.Len() != want/2 || s.Pending(done) != want/2-1 {
		t.Errorf("shard 1/2: Len %d, Pending %d", s.Len(), s.Pending(done))
	}
	for j := range s.Jobs(func(k string) bool { return k == first[1].Key() }) {
		if j.Key() != first[3].Key() {
			t.Errorf("shard 1/2 starts at %s, want %s", j.Key(), first[3].Key())
		}
		break
	}
	if _, err := NewPlan(solvers, lvls, nil, Budgets(nil, make([]int64, 1), nil), append(seeds, seeds...)); err != nil {
		t.Errorf("repeated seeds: %v", err)
	}
	many := make([]Budget, 10000)
	for i := range many {
		many[i] = Budget{Nodes: int64(i + 1)}
	}
	if _, err := NewPlan(solvers, lvls, nil, many, seeds); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("a plan beyond MaxRuns: %v", err)
	}
}

// A results file compressed with gzip (name ending in .gz) reads as the
// plain one does.
func TestReadGzip(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "r.jsonl")
	if _, _, err := runInto(t, context.Background(), plain, testJobs(t)[:6], 2, nil); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(text)
	w.Close()
	packed := filepath.Join(dir, "r.jsonl.gz")
	if err := os.WriteFile(packed, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	a, errA := ReadFiles(nil, plain)
	b, errB := ReadFiles(nil, packed)
	if errA != nil || errB != nil || len(a) != 6 || !slices.EqualFunc(a, b, func(x, y Record) bool { return x.Key == y.Key && x.Expanded == y.Expanded }) {
		t.Fatalf("plain %d records (%v), gzip %d (%v)", len(a), errA, len(b), errB)
	}
}
