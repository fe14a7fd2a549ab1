// Package suggest finds the name a user most likely meant when the one
// typed names nothing: a collection, a solver, a flag. The messages that
// use it say "did you mean" and the name found.
package suggest

import (
	"fmt"
	"strings"
)

// Closest returns the name of known that typed most likely stands for, or
// "" when none is close: first one equal but for letter case (ASTAR,
// Microban), then the only one typed begins (tim for time, at least
// three letters), then the nearest within a few typing slips (microbon):
// an edit distance of 1 for names of three or four letters, 2 up to eight,
// 3 beyond (none for one or two letters), the first of equals in known's
// order.
func Closest(typed string, known []string) string {
	if typed == "" {
		return ""
	}
	low := strings.ToLower(typed)
	for _, k := range known {
		if strings.ToLower(k) == low {
			return k
		}
	}
	if len(low) >= 3 {
		prefixed := ""
		for _, k := range known {
			if strings.HasPrefix(strings.ToLower(k), low) {
				if prefixed != "" {
					prefixed = ""
					break
				}
				prefixed = k
			}
		}
		if prefixed != "" {
			return prefixed
		}
	}
	best, bestDist := "", slips(len(low))+1
	for _, k := range known {
		if d := distance(low, strings.ToLower(k)); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// DidYouMean is the clause a message adds for typed: `; did you mean
// "astar"?` with the name written by quote (fmt's %q when nil), or ""
// when no name of known is close.
func DidYouMean(typed string, known []string, quote func(string) string) string {
	k := Closest(typed, known)
	if k == "" {
		return ""
	}
	if quote == nil {
		quote = func(s string) string { return fmt.Sprintf("%q", s) }
	}
	return "; did you mean " + quote(k) + "?"
}

// slips is how many edits a name of n letters may be away from a known one
// and still be taken for it.
func slips(n int) int {
	switch {
	case n <= 2:
		return 0 // a letter or two: anything is a slip away
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	}
	return 3
}

// distance is the Levenshtein distance of a and b, bytes compared (the
// names soko knows are ASCII), with a swap of two neighbours counting as
// one edit (optimal string alignment).
func distance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
