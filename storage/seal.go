package storage

import (
	"encoding/binary"
	"hash/crc32"
)

// Sealed values: every value cdcdb puts into bbolt (run metas with their
// block indexes and filters, keyspace records and their directory, the
// state bucket's numbers, log records in the log bucket, the log ring's
// salt) ends with a checksum of what identifies it and of its bytes:
//
//	payload, then big-endian uint32 CRC-32C(uvarint len(scope), scope, key, payload)
//
// key is the value's key in its bucket, and scope what makes that key
// unique in the file where it is not by itself (the keyspace a run meta or
// record belongs to, the log record a part is of, the bucket a state value
// is in). So a value read under another key, or in another keyspace's
// bucket, than it was written under - a damaged key, a damaged page of
// bbolt's that points to the wrong value - fails its check as damaged
// bytes do. bbolt checksums only its two meta pages: its branch and leaf
// pages are checked for structure when the file is opened (pagewalk.go).
//
// Two kinds of value are checked otherwise. Run blocks: each of a block's
// entries carries a CRC-32C of its own, under the block's key and its place
// in the block, which a lookup checks for the dozen entries it reads, and
// the block ends with a CRC-32C of all of it, under its key, which a walk
// from one block into the next checks (filerun.go); a block the block
// cache holds was checked whole once, when it was cached. The log ring's
// segments: the log writer rewrites them outside bbolt, and each record in
// them carries a checksum of its own (ring.go).
//
// CRC-32C is computed by the processor's CRC32 instruction on the machines
// cdcdb runs on (hash/crc32 uses it).

// sealSize is what a seal adds to a value.
const sealSize = 4

// Scopes of the values whose keys are unique within one bucket of fixed
// name.
var (
	stateScope = []byte("walstate")
	ringScope  = []byte("logring")
)

// sealSum is the checksum of a value with payload, stored under key in
// scope.
func sealSum(scope, key, payload []byte) uint32 {
	var n [binary.MaxVarintLen64]byte
	crc := crc32.Update(0, castagnoli, n[:binary.PutUvarint(n[:], uint64(len(scope)))])
	crc = crc32.Update(crc, castagnoli, scope)
	crc = crc32.Update(crc, castagnoli, key)
	return crc32.Update(crc, castagnoli, payload)
}

// appendSeal appends the seal of payload (the value's bytes so far, all of
// dst) under key in scope.
func appendSeal(payload, scope, key []byte) []byte {
	return binary.BigEndian.AppendUint32(payload, sealSum(scope, key, payload))
}

// sealed returns a new value of payload sealed under key in scope.
func sealed(payload, scope, key []byte) []byte {
	v := make([]byte, 0, len(payload)+sealSize)
	return appendSeal(append(v, payload...), scope, key)
}

// unseal returns a sealed value's payload, or false when the value fails
// its check (it points into v).
func unseal(v, scope, key []byte) ([]byte, bool) {
	if len(v) < sealSize {
		return nil, false
	}
	payload := v[:len(v)-sealSize]
	return payload, binary.BigEndian.Uint32(v[len(payload):]) == sealSum(scope, key, payload)
}
