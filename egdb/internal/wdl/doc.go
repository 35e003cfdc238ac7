// Package wdl compresses a sector's values reduced to win, draw or loss
// (W/D/L: a symbol 0, 1 or 2 an index) so that any one of them can be read
// back on its own, fast, from a memory map: the storage of the compact
// file of perfect play (docs/egdb.md, "The compact file").
//
// A Stream is the symbols of one sector in index order, cut into chunks
// (1024 to 16384 symbols, chosen by the encoder to hold about 64 runs),
// each coded on its own as runs: a run's symbol and length as one code
// given the symbol before (a length over 16 by its bit length, its low
// bits following), by rANS (Duda's range asymmetric numeral systems)
// under a static model counted over the stream and stored with it
// (quantised to 15 bits). A read decodes one chunk's runs up to the index
// asked for: a few dozen codes, most runs one. Streams of version 2 (a
// run in two codes and its low bits) are still read. Chunks
// are grouped in blocks of BlockChunks, each with its offset and a CRC-32C
// of its bytes, checked before the block is first read.
//
// The encoder takes, for each index, the mask of the symbols it may hold:
// one for an exact value, several for an index whose value does not
// matter (an unused duplicate of a symmetric position) or is found
// otherwise (a position whose captures reach its value: the compact file's
// don't care). At each run's start it picks the allowed symbol that the
// most indices in a row allow, so the free indices extend runs and cost
// almost nothing.
//
// Where things are:
//
//	model.go   Model: the runs' contexts, counting, quantising the frequencies, storing them
//	stream.go  Encode, Stream (its bytes), Open (a Stream over bytes, no copy), At, Chunk, Verify
//	v2.go      the model and the decoding of version 2's streams, still read
package wdl
