package sokoban

import (
	"fmt"

	"soko/level"
)

// Walk returns a shortest player walk (no pushes) from the player's square
// to target, or false if target cannot be reached.
func (p *Position) Walk(target Square) ([]level.Dir, bool) {
	if target == p.player {
		return nil, true
	}
	from := make([]int8, p.b.N) // direction that first reached a square, -1 unseen
	for i := range from {
		from[i] = -1
	}
	queue := []Square{p.player}
	from[p.player] = 4
	for head := 0; head < len(queue) && from[target] < 0; head++ {
		s := queue[head]
		for d := range Dirs {
			n := p.b.Next(s, d)
			if n >= 0 && from[n] < 0 && p.boxAt[n] < 0 {
				from[n] = int8(d)
				queue = append(queue, n)
			}
		}
	}
	if from[target] < 0 {
		return nil, false
	}
	var path []level.Dir
	for s := target; s != p.player; {
		d := Dir(from[s])
		path = append(path, d)
		s = p.b.Next(s, d^1)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, true
}

// Expand turns a push sequence from the level's start into the full move
// sequence: before each push the player takes a shortest walk to the square
// behind the box. It fails if a push is not legal where it is made, which
// would be a solver bug, with an error that names the level.
func (b *Board) Expand(pushes []Push) ([]level.Move, error) {
	p := b.Start()
	var moves []level.Move
	for i, m := range pushes {
		if !p.CanPush(m) {
			return nil, fmt.Errorf("%s: push %d of %d is not legal", b.Level.Name(), i+1, len(pushes))
		}
		walk, _ := p.Walk(b.Next(m.Box, m.Dir^1))
		for _, d := range walk {
			moves = append(moves, level.Move{Dir: d})
		}
		moves = append(moves, level.Move{Dir: m.Dir, Push: true})
		p.Apply(m)
	}
	return moves, nil
}

// Rows draws the position as XSB rows of the level's grid: the level's
// walls and goals with p's boxes and player.
func (p *Position) Rows() []string {
	l := p.b.Level
	rows := make([][]byte, l.Height)
	for y, r := range l.Rows {
		rows[y] = []byte(r)
		for x, c := range rows[y] {
			if p.b.square[y*l.Width+x] == None {
				continue // walls, outside, and boxes fixed on unreachable goals
			}
			switch c {
			case level.Box, level.Player:
				rows[y][x] = level.Floor
			case level.BoxOnGoal, level.PlayerOnGoal:
				rows[y][x] = level.Goal
			}
		}
	}
	put := func(s Square, onFloor, onGoal byte) {
		c := p.b.cell[s]
		x, y := int(c)%l.Width, int(c)/l.Width
		if p.b.goal[s] {
			rows[y][x] = onGoal
		} else {
			rows[y][x] = onFloor
		}
	}
	for _, s := range p.boxes {
		put(s, level.Box, level.BoxOnGoal)
	}
	put(p.player, level.Player, level.PlayerOnGoal)
	out := make([]string, len(rows))
	for y, r := range rows {
		out[y] = string(r)
	}
	return out
}
