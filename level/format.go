package level

import (
	"strconv"
	"strings"
)

// Format returns the XSB text of one level: a "; <n> <Title>" comment line,
// n being the level's Number or, without one, its Index when that is
// above 0 (a "Title:" line when only the title is set), then the rows with
// trailing spaces removed, each ending in a newline. Parsing the result
// gives back the same rows, size and title, and n as the Number: a level
// shown from microban:12 keeps the title "; 12" in whatever file it is
// saved to, where its address is its position.
func Format(l *Level) string {
	var b strings.Builder
	writeLevel(&b, l)
	return b.String()
}

func writeLevel(b *strings.Builder, l *Level) {
	n := l.Number
	if n == "" && l.Index > 0 {
		n = strconv.Itoa(l.Index)
	}
	switch {
	case n != "":
		b.WriteString("; " + n)
		if l.Title != "" {
			b.WriteString(" " + quoteTitle(oneLine(l.Title)))
		}
		b.WriteByte('\n')
	case l.Title != "":
		b.WriteString("Title: " + oneLine(l.Title) + "\n")
	}
	for _, r := range l.Rows {
		b.WriteString(strings.TrimRight(r, " "))
		b.WriteByte('\n')
	}
}

// quoteTitle puts single quotes around a title that would otherwise not
// survive parsing: one with surrounding blanks or surrounding quotes.
func quoteTitle(t string) string {
	if t != strings.TrimSpace(t) || (len(t) >= 2 && t[0] == '\'' && t[len(t)-1] == '\'') {
		return "'" + t + "'"
	}
	return t
}

// oneLine replaces line breaks by spaces.
func oneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}
