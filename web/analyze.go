package web

import (
	"context"
	"net/http"

	"soko/analyze"
	"soko/deadlock"
	"soko/sokoban"
)

// analyze answers POST /api/analyze {level…} with what soko analyze
// shows: the dead squares, tunnels and goal rooms (with their packing
// order) to draw on the board, and soko analyze's text, worked out within
// Config.PlanTime.
func (s *Server) analyze(w http.ResponseWriter, r *http.Request) {
	l, b, ok := s.requestBoard(w, r)
	if !ok {
		return
	}
	// The analysis includes the fess plans, which it cuts off at
	// analyze.PlanTime: the whole gets the plans' time limit, and past it
	// (or when the client has gone) the answer is 503.
	var text string
	var m *deadlock.Macros
	if !s.setupWork(w, r, "the analysis of "+levelID(l), func(ctx context.Context) (err error) {
		if text, err = analyze.Render(ctx, l); err == nil {
			m, err = deadlock.NewMacros(ctx, b)
		}
		return err
	}) {
		return
	}
	dead := deadlock.DeadSquares(b)
	type tunnel struct {
		X          int  `json:"x"`
		Y          int  `json:"y"`
		Horizontal bool `json:"horizontal"`
		Vertical   bool `json:"vertical"`
	}
	type room struct {
		Squares   []xy `json:"squares"`
		Goals     []xy `json:"goals"`
		Entrances []xy `json:"entrances"`
		Order     []xy `json:"packing_order"` // goals in fill order; empty without one
	}
	at := func(sq sokoban.Square) xy { x, y := b.XY(sq); return xy{x, y} }
	list := func(sqs []sokoban.Square) []xy {
		out := make([]xy, 0, len(sqs))
		for _, sq := range sqs {
			out = append(out, at(sq))
		}
		return out
	}
	out := struct {
		Level      string   `json:"level"`
		Dead       []xy     `json:"dead"`
		Tunnels    []tunnel `json:"tunnels"`
		Rooms      []room   `json:"rooms"`
		Text       string   `json:"text"`
		Impossible string   `json:"impossible,omitempty"`
	}{Level: levelID(l), Dead: []xy{}, Tunnels: []tunnel{}, Rooms: []room{}, Text: text, Impossible: analyze.Impossible(b, dead)}
	for sq := range b.N {
		p := at(sokoban.Square(sq))
		if dead[sq] {
			out.Dead = append(out.Dead, p)
		}
		if t := m.Tunnel[sq]; t != 0 {
			out.Tunnels = append(out.Tunnels, tunnel{p[0], p[1], t&deadlock.TunnelHorizontal != 0, t&deadlock.TunnelVertical != 0})
		}
	}
	for _, rm := range m.Rooms {
		var order []sokoban.Square
		if rm.Fill != nil {
			order = rm.Fill.Order
		}
		out.Rooms = append(out.Rooms, room{list(rm.Squares), list(rm.Goals), list(rm.Entrances), list(order)})
	}
	writeJSON(w, http.StatusOK, out)
}
