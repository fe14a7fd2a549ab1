package web

import (
	"context"
	"net/http"

	"soko/analyze"
	"soko/deadlock"
	"soko/fess"
	"soko/sokoban"
)

// planJSON is the answer of POST /api/plan: the fess solver's packing plan,
// the goals in the order it fills them.
type planJSON struct {
	Level string `json:"level"`
	Order []xy   `json:"order"` // goals, first filled first
}

// plan answers POST /api/plan {level…} with the packing plan that soko
// analyze prints (fess.PlanOrder), worked out within Config.PlanTime and the
// request's life.
func (s *Server) plan(w http.ResponseWriter, r *http.Request) {
	l, b, ok := s.requestBoard(w, r)
	if !ok {
		return
	}
	if why := analyze.Impossible(b, deadlock.DeadSquares(b)); why != "" {
		writeError(w, http.StatusUnprocessableEntity, "%s has no packing plan: it cannot be solved (%s)", levelID(l), why)
		return
	}
	var order []sokoban.Square
	if !s.setupWork(w, r, "the packing plan of "+levelID(l), func(ctx context.Context) (err error) {
		order, err = fess.PlanOrder(ctx, b)
		return err
	}) {
		return
	}
	out := planJSON{Level: levelID(l), Order: make([]xy, 0, len(order))}
	for _, g := range order {
		x, y := b.XY(g)
		out.Order = append(out.Order, xy{x, y})
	}
	writeJSON(w, http.StatusOK, out)
}
