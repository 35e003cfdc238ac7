// Package dist compresses a sector's distances to the end of the game
// (plies, halved: the parity follows from whether the position is won or
// lost) so that any one can be read back on its own from a memory map: the
// storage of the compact file's optional distances (docs/egdb.md, "The
// distances"). Draws and unused indices are DontCare.
//
// A Stream is the values of one sector in index order, cut into chunks of
// 256, each coded on its own by rANS under a static model stored with it:
// for each index, "the value before again" (what a DontCare index costs,
// next to nothing) or the value's bit length, each in the context of the
// code before, and the value's bits below its top one as they are. A read
// decodes its chunk up to the index asked for. Chunks are grouped in
// blocks of 64, each with its offset and a CRC-32C, checked before the
// block is first read.
//
// Where things are:
//
//	dist.go  Encode, Stream (Open, At, Chunk, Verify), the model and the rANS coder
package dist
