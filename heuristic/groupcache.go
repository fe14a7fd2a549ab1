package heuristic

import (
	"slices"

	"soko/sokoban"
)

// groupCache keeps what the group bound found for recent positions: a
// direct-mapped cache of group's results by the boxes and the player's own
// square, one load instead of the labels' several (recentSlot says how an
// entry is laid out; nil until the first group), and the regions of the
// player for recent box sets with the results looked up for them.
type groupCache struct {
	*groupBoard
	recent  []uint64
	bitsPer uint // the bits of one square in a key
	labels  [labelSlots]regionLabels
	// labelBytes is what the labels allocated hold.
	labelBytes int64
}

// remember puts e in slot of the cache of recent results under key, when
// slot is one (not −1) and e fits.
func (gc *groupCache) remember(slot int, key uint64, e groupEntry) {
	if slot >= 0 && e.pushes < 255 {
		c := uint64(0) // no solution: bound uses nothing else of the entry
		if e.ok {
			c = uint64(e.pushes) + 1
		}
		gc.recent[slot] = key | c<<distShift
	}
}

// recentSlot returns the slot of the cache of recent results for boxes
// (sorted) and player, and the key that goes there; −1 when the key does
// not fit.
func (gc *groupCache) recentSlot(boxes []sokoban.Square, player sokoban.Square) (int, uint64) {
	if uint(len(boxes)+1)*gc.bitsPer >= distShift {
		return -1, 0
	}
	if gc.recent == nil {
		gc.recent = make([]uint64, recentSlots)
	}
	key := 1<<gc.bitsPer | uint64(player) // the leading 1 tells the number of boxes
	for _, s := range boxes {
		key = key<<gc.bitsPer | uint64(s)
	}
	return int(key * 0x9e3779b97f4a7c15 >> (64 - recentBits)), key
}

// recentBits sizes groupCache.recent, whose slots hold the key of the
// boxes and player (pack's layout with the player's own square, after a
// bit set to 1) in the low distShift bits and, above, the result's pushes
// plus one, or 0 for no solution; an empty slot is 0 (no key is).
const (
	recentBits  = 18
	recentSlots = 1 << recentBits
)

// labelSlots is the number of box sets whose regions GroupBound keeps.
const labelSlots = 1 << 16

// regionLabels are the regions of the player with boxes on the board:
// label[s] is the smallest square of the region of s.
type regionLabels struct {
	boxes []sokoban.Square
	label []sokoban.Square
	memo  []regionEntry // the results looked up for the boxes, by region
}

// regionEntry is the result of the problem of a box set with the player
// in the region of canon.
type regionEntry struct {
	canon sokoban.Square
	entry groupEntry
}

// regions returns the regions of the player with boxes on the board: those
// of the last boxes with the same hash slot, after labelling every region
// of boxes when they are not those. The groups that a push leaves alone
// keep their boxes, so one labelling (and its results) serves many
// states.
func (gc *groupCache) regions(boxes []sokoban.Square) *regionLabels {
	h := uint64(0)
	for _, s := range boxes {
		h = (h ^ uint64(s)) * 0x100000001b3
	}
	rl := &gc.labels[h>>32%labelSlots]
	if !slices.Equal(rl.boxes, boxes) {
		rl.boxes = append(rl.boxes[:0], boxes...)
		rl.memo = rl.memo[:0]
		if rl.label == nil {
			rl.label = make([]sokoban.Square, gc.b.N)
			gc.labelBytes += int64(gc.b.N)*4 + 64
		}
		for s := range rl.label {
			rl.label[s] = sokoban.None
		}
		for _, s := range boxes {
			rl.label[s] = s // not a region; never asked for
		}
		for s := sokoban.Square(0); int(s) < gc.b.N; s++ {
			if rl.label[s] != sokoban.None || gc.wall[s] {
				continue
			}
			gc.reach(boxes, s) // s is the smallest square of its region
			for _, t := range gc.marked {
				rl.label[t] = s
			}
		}
	}
	return rl
}
