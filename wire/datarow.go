package wire

import (
	"encoding/binary"
	"math"
)

// DataRow is the message a large result sends most: sendDataRow encodes it
// straight into the transport's buffer, where pgproto3's Backend would
// encode it into its own and then copy it over (send). The format is the
// protocol's: 'D', the length, the value count, and each value as its
// length (-1 for NULL) and bytes.

// dataRowDirectMax is the largest row encoded here; a larger one (or one
// with more values than the count can say) goes through pgproto3, which
// enforces the protocol's limits and reports them.
const dataRowDirectMax = 1 << 20

// sendDataRow queues one DataRow. ok is false when the row is not one to
// encode here; nothing was sent then.
func (c *conn) sendDataRow(values [][]byte) (ok bool, err error) {
	if len(values) > math.MaxUint16 {
		return false, nil
	}
	size := 4 + 2 // length and count
	for _, v := range values {
		size += 4 + len(v)
		if size > dataRowDirectMax {
			return false, nil
		}
	}
	out := c.tr.out
	buf := out.AvailableBuffer()
	if cap(buf) < 1+size {
		// Make room first, so the message is encoded in place.
		if err := out.Flush(); err != nil {
			return true, err
		}
		buf = out.AvailableBuffer()
	}
	buf = append(buf, 'D')
	buf = binary.BigEndian.AppendUint32(buf, uint32(size))
	buf = binary.BigEndian.AppendUint16(buf, uint16(len(values)))
	for _, v := range values {
		if v == nil {
			buf = binary.BigEndian.AppendUint32(buf, math.MaxUint32) // -1
			continue
		}
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(v)))
		buf = append(buf, v...)
	}
	_, err = out.Write(buf)
	return true, err
}
