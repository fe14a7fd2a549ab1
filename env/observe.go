package env

import "soko/sokoban"

// drawAll draws the planes of the current state from scratch.
func (e *Env) drawAll() {
	l := e.levels[e.cur]
	n := l.Width * l.Height
	if cap(e.planes) < NumPlanes*n {
		e.planes = make([]float32, NumPlanes*n)
	}
	e.planes = e.planes[:NumPlanes*n]
	copy(e.planes[PlaneWall*n:], e.bd.walls)
	copy(e.planes[PlaneGoal*n:], e.bd.goals)
	clear(e.planes[PlaneBox*n:])
	for _, s := range e.pos.BoxSquares() {
		e.planes[PlaneBox*n+e.cell(s)] = 1
	}
	e.planes[PlanePlayer*n+e.cell(e.pos.Player())] = 1
}

// cell returns the grid cell index (y·Width + x) of square s.
func (e *Env) cell(s sokoban.Square) int {
	x, y := e.bd.b.XY(s)
	return y*e.levels[e.cur].Width + x
}

// drawBox moves a box from one square to another in the box plane.
func (e *Env) drawBox(from, to sokoban.Square) {
	n := len(e.planes) / NumPlanes
	e.planes[PlaneBox*n+e.cell(from)] = 0
	e.planes[PlaneBox*n+e.cell(to)] = 1
}

// drawPlayer moves the player in the player plane.
func (e *Env) drawPlayer(from, to sokoban.Square) {
	n := len(e.planes) / NumPlanes
	e.planes[PlanePlayer*n+e.cell(from)] = 0
	e.planes[PlanePlayer*n+e.cell(to)] = 1
}

// observation wraps the planes.
func (e *Env) observation() Observation {
	l := e.levels[e.cur]
	return Observation{Width: l.Width, Height: l.Height, Planes: e.planes}
}
