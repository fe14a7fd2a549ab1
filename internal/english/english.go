// Package english writes counts in messages with the right number: "1 box",
// "2 boxes", "0 errors".
package english

import "strconv"

// Count returns n followed by singular when n is 1 or -1 and by plural
// otherwise, as in Count(1, "goal", "goals") = "1 goal".
func Count[T ~int | ~int64](n T, singular, plural string) string {
	if n == 1 || n == -1 {
		return strconv.FormatInt(int64(n), 10) + " " + singular
	}
	return strconv.FormatInt(int64(n), 10) + " " + plural
}
