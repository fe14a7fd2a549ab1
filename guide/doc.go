// Package guide is the learned guide of the strong search: a linear model
// over hashed local contexts of a move (the pattern of squares around the
// box it moves, what it does to the position's features), trained from
// soko's own solutions to tell the move a solution takes from its
// siblings, the other moves of the same position: the positions on the
// solution paths of the levels fess solves against the positions its
// expansion makes off them.
//
// The model is the context model of Orseau, Hutter and Lelis (2023,
// "Levin Tree Search with Context Models"; package lts) turned from four
// fixed actions to a variable set of moves: each move's score is the sum
// of the weights of its contexts' rows, and the probability of a move
// among its siblings is the softmax of their scores. The log loss of the
// move taken is convex in the weights. A score costs one table read per
// context, about what one deadlock check costs; package fess computes the
// contexts and uses the score where it chooses (docs/fess.md, "The
// learned guide").
package guide
