package types

import "unsafe"

// Boxes makes Values of strings and integers from slabs of them. Converting
// a string or an int64 (past 255) to an interface allocates a box for it,
// one tiny object per value; COPY makes a Value of every field of every row,
// five thousand of them for a batch of a thousand five-column rows, so it
// boxes them here instead, one allocation per boxesPerSlab values.
//
// A Value from Boxes is an ordinary Value: an interface holding a string or
// an int64, which compares, type-switches and formats as any other. Its box
// is a slot of a slab, written once before the Value is made and never
// again, and the Value keeps the slab alive (a few kilobytes) while it
// lives. The zero Boxes is ready to use; a Boxes must not be used from
// several goroutines at once.
type Boxes struct {
	strs []string
	ints []int64
}

const boxesPerSlab = 128

// String returns s as a Value.
func (b *Boxes) String(s string) Value {
	if len(b.strs) == 0 {
		b.strs = make([]string, boxesPerSlab)
	}
	p := &b.strs[0]
	b.strs = b.strs[1:]
	*p = s
	var v Value = "" // the empty string's box is static: no allocation
	(*iface)(unsafe.Pointer(&v)).data = unsafe.Pointer(p)
	return v
}

// Int64 returns n as a Value.
func (b *Boxes) Int64(n int64) Value {
	if uint64(n) < 256 {
		return n // boxed from a static table, without allocating
	}
	if len(b.ints) == 0 {
		b.ints = make([]int64, boxesPerSlab)
	}
	p := &b.ints[0]
	b.ints = b.ints[1:]
	*p = n
	var v Value = int64(0)
	(*iface)(unsafe.Pointer(&v)).data = unsafe.Pointer(p)
	return v
}

// iface is how Go lays out an interface value: its dynamic type, and a
// pointer to the value (for a string or an int64, to a box holding it).
// Boxes makes the interface of the right type and points it at its slot.
type iface struct {
	typ, data unsafe.Pointer
}
