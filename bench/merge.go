package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"

	"soko/internal/english"
	"soko/internal/jsonl"
	"soko/levels"
)

// eachRepeat calls f for each record of all whose key an earlier record
// holds: with kept, the first record of that key, repeat, the later one,
// and the fields in which they differ (none: the same run twice).
func eachRepeat(all []Record, f func(kept, repeat int, fields []string)) {
	first := map[string]int{}
	for i := range all {
		j, seen := first[all[i].Key]
		if !seen {
			first[all[i].Key] = i
			continue
		}
		f(j, i, differingFields(&all[j], &all[i]))
	}
}

// differingFields names the JSON fields in which two records differ.
func differingFields(a, b *Record) []string {
	ma, mb := recordFields(a), recordFields(b)
	var out []string
	for _, k := range slices.Sorted(maps.Keys(ma)) {
		if !reflect.DeepEqual(ma[k], mb[k]) {
			out = append(out, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(mb)) {
		if _, ok := ma[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

func recordFields(r *Record) map[string]any {
	b, err := json.Marshal(r)
	if err != nil {
		return nil
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

// outcome is a record's result in a few words: "solved, 33 pushes", "time
// limit".
func outcome(r *Record) string {
	if r.Solved() {
		return fmt.Sprintf("solved, %s, %.3f s", english.Count(r.Pushes, "push", "pushes"), r.WallS)
	}
	return r.Status
}

// FileNames gives a level file typed several ways (lv/x.xsb, ./lv/x.xsb,
// its absolute path, a link to it) one name: the first met. A source that
// is no file on this machine (an embedded collection, a file not here)
// keeps its own. The zero FileNames is ready to use.
type FileNames struct {
	files []namedFile
	names map[string]string // a source → its name
}

type namedFile struct {
	name string
	info os.FileInfo
}

// Name returns the name of the file source names: source itself, or the
// first spelling met of the same file.
func (fn *FileNames) Name(source string) string {
	if name, ok := fn.names[source]; ok {
		return name
	}
	if fn.names == nil {
		fn.names = map[string]string{}
	}
	name := source
	if _, isFile := levels.File(source); isFile {
		if st, err := os.Stat(source); err == nil && st.Mode().IsRegular() {
			i := slices.IndexFunc(fn.files, func(f namedFile) bool { return os.SameFile(st, f.info) })
			if i >= 0 {
				name = fn.files[i].name
			} else {
				fn.files = append(fn.files, namedFile{source, st})
			}
		}
	}
	fn.names[source] = name
	return name
}

// respellFiles gives the runs of a level file typed several ways across
// the files merged the first spelling met (FileNames), in their level ids
// and keys, so that a run sharded from different directories is kept once
// and the file stays one collection. It returns the number of files that
// had more than one spelling.
func respellFiles(recs []Record) int {
	var names FileNames
	respelled := map[string]bool{}
	for i := range recs {
		source, index := SplitLevelID(recs[i].Level)
		name := names.Name(source)
		if name == source {
			continue
		}
		respelled[name] = true
		keyed := recs[i].Key == recs[i].RunKey()
		recs[i].Level = levelID(name, index)
		if keyed {
			recs[i].Key = recs[i].RunKey()
		}
	}
	return len(respelled)
}

// Merge joins results files into w in canonical order, keeping each run
// once: the first of its records, in the order of paths and then of lines.
// It returns the number of runs written and of duplicates dropped. When log
// is not nil, Merge says there which duplicates differ from the record kept
// (where each is, and in which fields), how many were identical to it, and
// which last line cut short it left out.
func Merge(w, log io.Writer, paths ...string) (runs, dups int, err error) {
	type at struct {
		file string
		line int
	}
	var all []Record
	var where []at
	for _, p := range paths {
		f, err := jsonl.Open(p)
		if err != nil {
			return 0, 0, err
		}
		recs, lines, tail, err := readRecordsAt(context.Background(), f, p)
		f.Close()
		if err != nil {
			return 0, 0, err
		}
		if tail.Cut > 0 && log != nil {
			fmt.Fprintln(log, "bench merge: "+CutNote(p, tail.Cut, "left out"))
		}
		all = append(all, recs...)
		for _, n := range lines {
			where = append(where, at{file: p, line: n})
		}
	}
	if n := respellFiles(all); n > 0 && log != nil {
		fmt.Fprintf(log, "bench merge: %s typed another way in some files (a path, ./path, a link): taken as one\n", english.Count(n, "level file", "level files"))
	}
	identical, differing := 0, 0
	const maxShown = 20
	eachRepeat(all, func(j, i int, fields []string) {
		if len(fields) == 0 {
			identical++
			return
		}
		differing++
		if log != nil && differing <= maxShown {
			fmt.Fprintf(log, "bench merge: %s differs in %s: kept %s:%d (%s), dropped %s:%d (%s)\n",
				all[i].Key, strings.Join(fields, ", "), where[j].file, where[j].line, outcome(&all[j]),
				where[i].file, where[i].line, outcome(&all[i]))
		}
	})
	if log != nil && identical+differing > 0 {
		if differing > maxShown {
			fmt.Fprintf(log, "bench merge: … and %s more\n", english.Count(differing-maxShown, "differing duplicate", "differing duplicates"))
		}
		fmt.Fprintf(log, "bench merge: %s dropped: %d identical to the run kept, %d differing (the first record of a run is kept)\n",
			english.Count(identical+differing, "duplicate record", "duplicate records"), identical, differing)
	}
	all, dups = Dedup(all)
	SortRecords(all)
	bw := bufio.NewWriter(w)
	for i := range all {
		b, err := json.Marshal(&all[i])
		if err != nil {
			return 0, 0, err
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return len(all), dups, bw.Flush()
}
