package generate_test

import (
	"context"
	"fmt"

	"soko/generate"
	"soko/level"
	"soko/verify"
)

// Level 1 of seed 42: 8×8, two boxes. The same seed and number give the
// same level every time, with a solution from its construction.
func Example() {
	g, err := generate.One(context.Background(), generate.Config{Width: 8, Height: 8, Boxes: 2, Seed: 42}, 1)
	if err != nil {
		panic(err)
	}
	fmt.Print(level.Format(g.Level))
	rep := verify.Replay(g.Level, g.Solution)
	fmt.Println("solved by its construction:", rep.Solved, "- optimal pushes:", g.Optimal)
	// Output:
	// ; 1 seed 42 #1
	// ########
	// #   ####
	// #.   ###
	// #   $###
	// #.   ###
	// #   $@##
	// ###   ##
	// ########
	// solved by its construction: true - optimal pushes: 12
}
