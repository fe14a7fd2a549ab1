package nn

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// A param is one tensor of weights with its gradient and Adam moments,
// which are allocated on the first backward pass (a network loaded only
// for inference never needs them).
type param struct {
	w, g, m, v []float64
}

func newParam(n int) *param { return &param{w: make([]float64, n)} }

// zeroGrad clears the gradient, allocating it and the moments if needed.
func (p *param) zeroGrad() {
	if p.g == nil {
		p.g, p.m, p.v = make([]float64, len(p.w)), make([]float64, len(p.w)), make([]float64, len(p.w))
	}
	clear(p.g)
}

// shape is a batch of activations laid out (C, N, H, W): channel-major, so
// that a channel of the whole batch is one contiguous row of N·H·W values.
type shape struct{ c, n, h, w int }

func (s shape) cols() int { return s.n * s.h * s.w }

// gemm computes c = alpha·op(a)·op(b) + beta·c for row-major matrices.
func gemm(ta, tb bool, m, n, k int, alpha float64, a []float64, b []float64, beta float64, c []float64) {
	tA, tB := blas.NoTrans, blas.NoTrans
	ar, ac, br, bc := m, k, k, n
	if ta {
		tA, ar, ac = blas.Trans, k, m
	}
	if tb {
		tB, br, bc = blas.Trans, n, k
	}
	blas64.Gemm(tA, tB, alpha,
		blas64.General{Rows: ar, Cols: ac, Stride: ac, Data: a},
		blas64.General{Rows: br, Cols: bc, Stride: bc, Data: b},
		beta,
		blas64.General{Rows: m, Cols: n, Stride: n, Data: c})
}

// conv is a k×k convolution with zero padding k/2 (the output has the
// input's height and width) and a bias per output channel.
//
// The batch's squares are processed a chunk at a time, so that the k×k
// neighbourhoods of a chunk (im2col) stay in cache and its scratch memory is
// bounded whatever the board, and so that a cancelled context stops a long
// layer between chunks; a chunk's columns are a strided sub-matrix of the
// batch's (C, N·H·W) activations. Chunks are taken in order, so gradients
// are summed in the same order whatever their size.
type conv struct {
	in, out, k int
	weight     *param // out × (in·k·k)
	bias       *param // out
}

func newConv(in, out, k int) *conv {
	return &conv{in: in, out: out, k: k, weight: newParam(out * in * k * k), bias: newParam(out)}
}

// chunkValues bounds the values of one chunk's im2col matrix (256 KiB)
// unless a chunk of minChunk squares takes more; variables so that the
// tests can force chunks of a board, or of a square.
var (
	chunkValues = 32 << 10
	minChunk    = 256
)

// chunk is the number of squares in one chunk on boards of hw squares:
// boards of at most minChunk squares go whole, as many as chunkValues
// allows and at least one; a bigger board goes in stretches of as many
// squares as chunkValues allows and at least minChunk, so that the matrix
// products stay efficient.
func (l *conv) chunk(hw int) int {
	kk := l.in * l.k * l.k
	if hw <= minChunk {
		return hw * max(1, chunkValues/(kk*hw))
	}
	return max(chunkValues/kk, minChunk)
}

// sub is the sub-matrix of columns [a, b) of a rows × m matrix.
func sub(data []float64, rows, m, a, b int) blas64.General {
	return blas64.General{Rows: rows, Cols: b - a, Stride: m, Data: data[a:]}
}

// dense64 is a rows × cols matrix stored without gaps.
func dense64(data []float64, rows, cols int) blas64.General {
	return blas64.General{Rows: rows, Cols: cols, Stride: cols, Data: data}
}

// taps walks the column matrix of the batch columns [a, b), a matrix of
// in·k·k rows (one per tap: input channel, kernel row, kernel column) and
// b−a columns, against the image x it is made of. For each tap and each
// stretch of the columns that lies in one board row it calls f with col,
// the stretch of the tap's row of cols, and img, the board row of x that
// the stretch reads, or nil where the tap looks above or below the board:
// square t of the stretch reads img[t+off] for t in [lo, hi) and lies off
// the board elsewhere. im2col and col2im are the two directions of it.
func (l *conv) taps(s shape, a, b int, cols, x []float64, f func(col, img []float64, off, lo, hi int)) {
	p, m, hw := l.k/2, s.cols(), s.h*s.w
	mc := b - a
	for ci := range l.in {
		for ky := range l.k {
			for kx := range l.k {
				row := cols[((ci*l.k+ky)*l.k+kx)*mc:][:mc]
				dy, dx := ky-p, kx-p
				for j := a; j < b; {
					n, i := j/hw, j%hw
					y, x0 := i/s.w, i%s.w
					k := min(s.w-x0, b-j)
					var img []float64
					if yy := y + dy; yy >= 0 && yy < s.h {
						img = x[ci*m+n*hw+yy*s.w:][:s.w]
					}
					// Squares t of the stretch read column x0+t+dx of the
					// row, inside the board for t in [lo, hi).
					lo, hi := min(max(-dx-x0, 0), k), min(max(s.w-dx-x0, 0), k)
					f(row[j-a:][:k], img, x0+dx, lo, hi)
					j += k
				}
			}
		}
	}
}

// im2col writes the k×k neighbourhoods of the batch columns [a, b) of x
// into cols, a matrix of in·k·k rows and b−a columns, and returns it.
func (l *conv) im2col(x []float64, s shape, a, b int, cols []float64) []float64 {
	cols = grow(cols, l.in*l.k*l.k*(b-a))
	l.taps(s, a, b, cols, x, func(col, img []float64, off, lo, hi int) {
		if img == nil {
			clear(col)
			return
		}
		clear(col[:lo])
		if lo < hi {
			copy(col[lo:hi], img[lo+off:])
		}
		clear(col[max(hi, lo):])
	})
	return cols
}

// col2im adds the gradient of the columns [a, b) back onto the input's
// gradient dx.
func (l *conv) col2im(dcols []float64, s shape, a, b int, dx []float64) {
	l.taps(s, a, b, dcols, dx, func(col, img []float64, off, lo, hi int) {
		if img == nil {
			return
		}
		for t := lo; t < hi; t++ {
			img[t+off] += col[t]
		}
	})
}

// forward computes y = W·im2col(x) + b; cols is scratch space. It stops
// between chunks with ctx's error once ctx is done.
func (l *conv) forward(ctx context.Context, x []float64, s shape, y, cols []float64) ([]float64, []float64, error) {
	m, kk := s.cols(), l.in*l.k*l.k
	y = grow(y, l.out*m)
	for co := range l.out {
		b := l.bias.w[co]
		row := y[co*m:][:m]
		for i := range row {
			row[i] = b
		}
	}
	w := dense64(l.weight.w, l.out, kk)
	per := l.chunk(s.h * s.w)
	for a := 0; a < m; a += per {
		if err := ctx.Err(); err != nil {
			return y, cols, err
		}
		b := min(a+per, m)
		var src blas64.General
		if l.k == 1 {
			src = sub(x, l.in, m, a, b)
		} else {
			cols = l.im2col(x, s, a, b, cols)
			src = dense64(cols, kk, b-a)
		}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, w, src, 1, sub(y, l.out, m, a, b))
	}
	return y, cols, nil
}

// backward adds the weight and bias gradients of dy to the layer and
// writes the gradient with respect to x into dx (nil skips it). It stops
// between chunks with ctx's error once ctx is done, the gradients then
// incomplete.
func (l *conv) backward(ctx context.Context, x []float64, s shape, dy []float64, dx, cols, dcols []float64) ([]float64, []float64, error) {
	m, kk := s.cols(), l.in*l.k*l.k
	for co := range l.out {
		sum := 0.0
		for _, v := range dy[co*m:][:m] {
			sum += v
		}
		l.bias.g[co] += sum
	}
	if dx != nil && l.k > 1 {
		clear(dx) // col2im adds to it
	}
	w, dw := dense64(l.weight.w, l.out, kk), dense64(l.weight.g, l.out, kk)
	per := l.chunk(s.h * s.w)
	for a := 0; a < m; a += per {
		if err := ctx.Err(); err != nil {
			return cols, dcols, err
		}
		b := min(a+per, m)
		g := sub(dy, l.out, m, a, b)
		if l.k == 1 {
			blas64.Gemm(blas.NoTrans, blas.Trans, 1, g, sub(x, l.in, m, a, b), 1, dw)
			if dx != nil {
				blas64.Gemm(blas.Trans, blas.NoTrans, 1, w, g, 0, sub(dx, l.in, m, a, b))
			}
			continue
		}
		cols = l.im2col(x, s, a, b, cols)
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, g, dense64(cols, kk, b-a), 1, dw)
		if dx != nil {
			dcols = grow(dcols, kk*(b-a))
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, w, g, 0, dense64(dcols, kk, b-a))
			l.col2im(dcols, s, a, b, dx)
		}
	}
	return cols, dcols, nil
}

// dense is a fully connected layer, y = W·x + b, on a batch of column
// vectors (in × N → out × N).
type dense struct {
	in, out int
	weight  *param // out × in
	bias    *param // out
}

func newDense(in, out int) *dense {
	return &dense{in: in, out: out, weight: newParam(out * in), bias: newParam(out)}
}

func (l *dense) forward(x []float64, n int, y []float64) []float64 {
	y = grow(y, l.out*n)
	for o := range l.out {
		row := y[o*n:][:n]
		for i := range row {
			row[i] = l.bias.w[o]
		}
	}
	gemm(false, false, l.out, n, l.in, 1, l.weight.w, x, 1, y)
	return y
}

func (l *dense) backward(x []float64, n int, dy, dx []float64) {
	gemm(false, true, l.out, l.in, n, 1, dy, x, 1, l.weight.g)
	for o := range l.out {
		sum := 0.0
		for _, v := range dy[o*n:][:n] {
			sum += v
		}
		l.bias.g[o] += sum
	}
	gemm(true, false, l.in, n, l.out, 1, l.weight.w, dy, 0, dx)
}

// relu replaces the negative values of x by zero, in place.
func relu(x []float64) {
	for i, v := range x {
		if v < 0 {
			x[i] = 0
		}
	}
}

// reluBack zeroes the gradient where the layer's output y was zero.
func reluBack(y, dy []float64) {
	for i, v := range y {
		if v <= 0 {
			dy[i] = 0
		}
	}
}

// grow returns b with length n, reusing its storage when it is big enough.
func grow(b []float64, n int) []float64 {
	if cap(b) >= n {
		return b[:n]
	}
	return make([]float64, n)
}
