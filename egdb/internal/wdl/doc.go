// Package wdl compresses a sector's values reduced to win, draw or loss
// (W/D/L: a symbol 0, 1 or 2 an index) so that any one of them can be read
// back on its own, fast, from a memory map: the storage of the compact
// file of perfect play (docs/egdb.md, "Toward a compact file").
//
// A Stream is the symbols of one sector, coded by rANS (Duda's range
// asymmetric numeral systems) under a static model: the probability of a
// symbol given its context, the two symbols before it in index order,
// counted over the sector and stored with it (quantised to 12 bits). The
// symbols are cut into chunks of ChunkLen, each coded on its own, so a
// read decodes at most one chunk, and only up to the index asked for;
// chunks are grouped in blocks of BlockChunks, each with its offset and a
// CRC-32C of its bytes, checked before the block is first read.
//
// Indices whose value does not matter (unused duplicates of symmetric
// positions, or values a reader finds otherwise) are "don't care": the
// encoder gives each the symbol its context finds likeliest, which costs
// almost nothing, and the decoder returns that symbol.
//
// The model is version 1 of what the compact file will use: the
// measurements in docs/egdb.md say which richer contexts (mills that can
// be closed, the sides' moves) and which don't-care positions the sizes
// need, and a new model is a new Version.
//
// Where things are:
//
//	model.go   Model: the contexts, counting, quantising the frequencies, the decoding tables
//	stream.go  Encode, Stream (its bytes), Open (a Stream over bytes, no copy), At, Chunk, Verify
package wdl
