package testlevel

import (
	"math/rand/v2"
	"strings"
)

// Room returns the rows of a w×h room walled round whose inner squares are
// floor but for about one in oneIn, a wall, and its floor squares in row
// order ({x, y}): the start of the random rooms of differential tests,
// which place boxes, goals and the player on the floor.
func Room(rng *rand.Rand, w, h, oneIn int) (rows [][]byte, floor [][2]int) {
	rows = make([][]byte, h)
	for y := range rows {
		rows[y] = []byte(strings.Repeat("#", w))
		for x := 1; y > 0 && y < h-1 && x < w-1; x++ {
			if rng.IntN(oneIn) > 0 {
				rows[y][x] = ' '
				floor = append(floor, [2]int{x, y})
			}
		}
	}
	return rows, floor
}

// Text joins rows into XSB text, a line each.
func Text(rows [][]byte) string {
	var sb strings.Builder
	for _, row := range rows {
		sb.Write(row)
		sb.WriteByte('\n')
	}
	return sb.String()
}
