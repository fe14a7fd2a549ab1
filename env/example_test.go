package env_test

import (
	"fmt"

	"soko/env"
	"soko/level"
)

// An episode over single moves with 001's rewards: the player pushes the
// box twice to the right, onto the goal.
func Example() {
	levels, err := level.ParseString("######\n#@$ .#\n######\n", "corridor")
	if err != nil {
		panic(err)
	}
	e, err := env.New(env.Config{MaxSteps: 100, Deadlocks: true}, levels[0])
	if err != nil {
		panic(err)
	}
	obs, _ := e.Reset()
	fmt.Println("planes:", env.NumPlanes, "of", obs.Width, "x", obs.Height, "- legal actions:", e.Legal(nil))
	for {
		_, reward, done, info := e.Step(env.Action(level.Right))
		fmt.Println("reward", reward, "boxes on goals", info.OnGoal)
		if done {
			break
		}
	}
	fmt.Println("solution:", level.FormatLURD(e.History()))
	// Output:
	// planes: 4 of 6 x 3 - legal actions: [3]
	// reward 10 boxes on goals 0
	// reward 100 boxes on goals 1
	// solution: RR
}
