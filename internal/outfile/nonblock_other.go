//go:build !unix

package outfile

// nonBlock: elsewhere there are no FIFOs to wait on.
const nonBlock = 0
