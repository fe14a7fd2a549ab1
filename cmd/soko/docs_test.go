package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"soko/solver"
)

// docsRoot is the repository root, seen from this package's directory.
const docsRoot = "../.."

// mdSection is one heading of a Markdown file and the text under it, up to
// the next heading of any level.
type mdSection struct {
	heading, body string
}

// mdSections splits a Markdown file at its headings, leaving out fenced
// code blocks' lines that start with #.
func mdSections(text string) []mdSection {
	var out []mdSection
	cur := mdSection{}
	fenced := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, "#") {
			out = append(out, cur)
			cur = mdSection{heading: strings.TrimSpace(strings.TrimLeft(line, "#"))}
			continue
		}
		cur.body += line + "\n"
	}
	return append(out, cur)
}

// mentions reports whether text names the flag written as dashed: not as
// part of a longer flag (--time is not in --time-limit or ---time).
func mentions(text, dashed string) bool {
	re := regexp.MustCompile(`(^|[^-\w])` + regexp.QuoteMeta(dashed) + `($|[^-\w])`)
	return re.MatchString(text)
}

// TestDocsCoverEveryFlag checks that docs/commands.md has a section for
// every command of soko help, its heading naming the command as `soko
// NAME`, and that every flag of the command (aliases included) is written in
// that section as soko help writes it (--flag, or -j). A command or flag
// added to run.go fails here until it is documented.
func TestDocsCoverEveryFlag(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(docsRoot, "docs", "commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := mdSections(string(b))
	sectionOf := func(name string) (string, bool) {
		var body strings.Builder
		found := false
		for _, s := range sections {
			if strings.Contains(s.heading, "`soko "+name+"`") {
				body.WriteString(s.body)
				found = true
			}
		}
		return body.String(), found
	}
	names := []string{"help"}
	for _, c := range commands {
		names = append(names, c.name)
	}
	for _, name := range names {
		body, ok := sectionOf(name)
		if !ok {
			t.Errorf("docs/commands.md has no section headed `soko %s`", name)
			continue
		}
		c := lookupCommand(name)
		if c == nil || c.flags == nil {
			continue
		}
		c.flags().VisitAll(func(f *flag.Flag) {
			if !mentions(body, dashed(f.Name)) {
				t.Errorf("docs/commands.md, section `soko %s`: flag %s is not documented", name, dashed(f.Name))
			}
		})
	}
}

// mdLink is a link target in Markdown: [text](target).
var mdLink = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)

// slug is the anchor GitHub gives a heading: lower case, punctuation
// dropped, spaces made hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors of a Markdown file's headings, with the
// suffixes -1, -2, … GitHub gives repeated ones.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, s := range mdSections(text)[1:] {
		a := slug(s.heading)
		if n := seen[a]; n > 0 {
			seen[a]++
			a += "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		out[a] = true
	}
	return out
}

// TestDocsLinksResolve checks that every relative link of the README, the
// pages of docs/ and results/README.md names a file or directory that
// exists, and where it has an anchor into a Markdown file, a heading of
// that file. Links inside fenced code blocks and inline code are not links.
func TestDocsLinksResolve(t *testing.T) {
	files := []string{"README.md", filepath.Join("results", "README.md")}
	pages, err := filepath.Glob(filepath.Join(docsRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no pages in docs/")
	}
	for _, p := range pages {
		rel, _ := filepath.Rel(docsRoot, p)
		files = append(files, rel)
	}
	inlineCode := regexp.MustCompile("`[^`]*`")
	checked := 0
	for _, file := range files {
		b, err := os.ReadFile(filepath.Join(docsRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		fenced := false
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				fenced = !fenced
			}
			if fenced || strings.HasPrefix(line, "    ") {
				continue
			}
			for _, m := range mdLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(line, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				path, anchor, _ := strings.Cut(target, "#")
				dest := filepath.Join(docsRoot, file)
				if path != "" {
					dest = filepath.Join(docsRoot, filepath.Dir(file), path)
				}
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s:%d: link %s: no such file", file, i+1, target)
					continue
				}
				if anchor == "" || !strings.HasSuffix(dest, ".md") {
					continue
				}
				text, err := os.ReadFile(dest)
				if err != nil {
					t.Fatal(err)
				}
				if !anchors(string(text))[anchor] {
					t.Errorf("%s:%d: link %s: no heading with anchor #%s", file, i+1, target, anchor)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d relative links checked; is the link pattern right?", checked)
	}
}

// TestDocsCoverEverySolver checks that docs/solvers.md names every
// registered solver as `NAME` and every parameter of it as NAME=VALUE
// (for a solver with its own page, that page counts too), so that a solver
// or parameter added to the registry fails here until it is documented.
func TestDocsCoverEverySolver(t *testing.T) {
	read := func(page string) string {
		b, err := os.ReadFile(filepath.Join(docsRoot, "docs", page))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	solvers := read("solvers.md")
	own := map[string]string{"fess": read("fess.md"), "qlearn": read("learning.md"), "qstar": read("learning.md"), "alphazero": read("learning.md")}
	for _, e := range solver.Entries() {
		if !strings.Contains(solvers, "`"+e.Name+"`") {
			t.Errorf("docs/solvers.md does not name solver `%s`", e.Name)
		}
		text := solvers + own[e.Name]
		for _, p := range e.Params {
			re := regexp.MustCompile(`(^|[^-\w])` + regexp.QuoteMeta(p.Name) + `=`)
			if !re.MatchString(text) {
				t.Errorf("docs/solvers.md: parameter %s=… of solver %s is not documented", p.Name, e.Name)
			}
		}
	}
}
