// Package nn is the small residual convolutional network of 003 §2.4
// (Purgal et al., "Solve Sokoban with AlphaZero"; README, References),
// written by hand on gonum's pure-Go BLAS, with CPU training and
// inference.
//
// The network (Net), for boards of any height and width:
//
//   - input: Config.Planes feature planes per board square;
//   - embedding: a 1×1 convolution to Config.Embed channels, which on
//     one-hot square features is exactly 003's per-square embedding layer;
//   - stem: a 3×3 convolution to Config.Channels channels and ReLU;
//   - Config.Blocks residual blocks, each x → relu(x + conv(relu(conv(x))))
//     with 3×3 convolutions (003 §2.4, Fig. 5, after Silver et al.; no batch
//     normalisation, which a batch of one board's positions would not
//     estimate well);
//   - value head: the channels averaged over the squares, a dense layer of
//     Config.Hidden units with ReLU, and one output;
//   - policy head: a 1×1 convolution to 4 channels, one logit per (square,
//     direction) — a push of the box on that square in that direction — and
//     a softmax over the legal ones only.
//
// Convolutions are im2col followed by GEMM, a chunk of the batch's squares
// at a time (boards, or stretches of rows of a large one), which bounds the
// scratch memory and lets a cancelled context stop a long layer; activations
// are laid out channel-major over the batch (C, N, H, W) so that every layer
// is a matrix product. Config.Bytes is the memory a network holds to
// evaluate or train a batch. Gonum's GEMM splits large products over
// the available cores; each output block is summed by one goroutine in a
// fixed order, so results do not depend on the number of threads.
//
// Training (Net.Train) minimises the squared error of the value plus the
// cross-entropy of the policy against target distributions, with Adam and
// decoupled weight decay (AdamW; 003 §3: learning rate 0.001, betas 0.9 and
// 0.999, weight decay 0.01). Backpropagation is checked against central
// finite differences in the tests (gradcheck_test.go).
//
// Model files (Save, Load) carry a versioned header and a CRC-32 of the
// whole content; a wrong, truncated or corrupt file is a clear error.
package nn
