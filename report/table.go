package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

func formatCount(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// table is a table that can be written as Markdown or CSV.
type table struct {
	title  string
	header []string
	rows   [][]string
	notes  []string
}

func (t *table) markdown(w io.Writer) {
	if t.title != "" {
		fmt.Fprintf(w, "%s\n\n", t.title)
	}
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	row := func(cells []string) {
		var b strings.Builder
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + esc(c) + " |")
		}
		fmt.Fprintln(w, b.String())
	}
	row(t.header)
	align := make([]string, len(t.header))
	for i := range align {
		align[i] = "---:"
	}
	align[0] = "---"
	fmt.Fprintln(w, "|"+strings.Join(align, "|")+"|")
	for _, r := range t.rows {
		row(r)
	}
	for _, n := range t.notes {
		fmt.Fprintf(w, "\n%s\n", n)
	}
	fmt.Fprintln(w)
}

// ratioSummary formats the mean and range of ratios, "1.03 (0.23–2.43)".
func ratioSummary(xs []float64) string {
	if len(xs) == 0 {
		return ""
	}
	return fmt.Sprintf("%s (%s–%s)", fmtF(mean(xs), 2), fmtF(slices.Min(xs), 2), fmtF(slices.Max(xs), 2))
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func fmtF(x float64, prec int) string {
	if math.IsNaN(x) {
		return "—"
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

// fmtSeconds writes a time in seconds to three significant digits in the
// unit that suits its size: "420 µs", "12.3 ms", "1.50 s". Microban's
// solves take well under a millisecond, XSokoban's up to minutes, and one
// column holds both.
func fmtSeconds(s float64) string {
	switch {
	case math.IsNaN(s):
		return "—"
	case s == 0:
		return "0 s"
	}
	e := math.Floor(math.Log10(math.Abs(s)))
	r := math.Round(s/math.Pow(10, e-2)) * math.Pow(10, e-2) // three significant digits
	v, unit := r, "s"
	switch a := math.Abs(r) * (1 + 1e-9); {
	case a < 1e-3:
		v, unit = r*1e6, "µs"
	case a < 1:
		v, unit = r*1e3, "ms"
	}
	prec := max(0, 2-int(math.Floor(math.Log10(math.Abs(v)*(1+1e-9)))))
	return strconv.FormatFloat(v, 'f', prec, 64) + " " + unit
}

// The documents the report's headings refer to, named by what a reader
// knows them by (the README's list of source documents gives them in
// full), so that the table or figure meant can be found.
var documents = map[string]string{
	"000": "the Schokoban thesis",
	"001": "the hybrid Q-learning report",
	"002": "the reversibility-compression paper",
}

// cite names a place in a document: cite("000", "Table 6.1") is "the
// Schokoban thesis, 000, Table 6.1".
func cite(doc, where string) string {
	return documents[doc] + ", " + doc + ", " + where
}
