package sokoban

import "fmt"

// MostOnGoal keeps, of the positions a search offers it, the first with
// the most boxes on goals: the board a live view draws while the search
// runs, with its caption. The zero MostOnGoal is not usable; call
// NewMostOnGoal.
type MostOnGoal struct {
	b      *Board
	onGoal int // -1 before the first offer
	key    []byte
}

// NewMostOnGoal returns a MostOnGoal for positions of b.
func NewMostOnGoal(b *Board) *MostOnGoal { return &MostOnGoal{b: b, onGoal: -1} }

// Offer keeps p when it has more boxes on goals than the position kept.
func (m *MostOnGoal) Offer(p *Position) {
	if p.onGoal > m.onGoal {
		m.onGoal, m.key = p.onGoal, p.PackExact(m.key[:0])
	}
}

// Rows draws the position kept, or returns nil before the first offer.
func (m *MostOnGoal) Rows() []string {
	if m.onGoal < 0 {
		return nil
	}
	q := m.b.Start()
	q.Unpack(m.key)
	return q.Rows()
}

// Caption says how many boxes the position kept has on goals, or returns
// "" before the first offer.
func (m *MostOnGoal) Caption() string {
	if m.onGoal < 0 {
		return ""
	}
	return fmt.Sprintf("boxes on goals %d of %d", m.onGoal, len(m.b.goals))
}
