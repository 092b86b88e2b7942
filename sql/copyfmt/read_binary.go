package copyfmt

import (
	"bytes"
	"encoding/binary"
	"io"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// ReadBinary parses PostgreSQL's binary COPY format: the signature and
// header extension, then rows of as many fields as columnTypes, each
// read with its column's binary input, up to the trailer.
func ReadBinary(r ChunkReader, columnTypes []types.T, row func([]types.Value) error) error {
	var buf []byte
	headerDone := false
	for {
		chunk, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		buf = append(buf, chunk...)
		pos := 0
		if !headerDone {
			if len(buf) < 19 {
				continue
			}
			if !bytes.Equal(buf[:11], []byte("PGCOPY\n\xff\r\n\x00")) {
				return pgerror.New(pgerror.BadCopyFileFormat, "COPY file signature not recognized")
			}
			extLen := int(binary.BigEndian.Uint32(buf[15:19]))
			if len(buf) < 19+extLen {
				continue
			}
			pos = 19 + extLen
			headerDone = true
		}
		for {
			if len(buf)-pos < 2 {
				break
			}
			nf := int16(binary.BigEndian.Uint16(buf[pos:]))
			if nf == -1 {
				// The trailer: the client may still send (empty) CopyData
				// before CopyDone; read up to it.
				for {
					if _, err := r.Next(); err != nil {
						if err == io.EOF {
							return nil
						}
						return err
					}
				}
			}
			if int(nf) != len(columnTypes) {
				return pgerror.New(pgerror.BadCopyFileFormat, "row field count is %d, expected %d", nf, len(columnTypes))
			}
			p := pos + 2
			vals := make([]types.Value, len(columnTypes))
			complete := true
			for i := 0; i < int(nf); i++ {
				if len(buf)-p < 4 {
					complete = false
					break
				}
				l := int32(binary.BigEndian.Uint32(buf[p:]))
				p += 4
				if l == -1 {
					continue
				}
				if l < 0 || len(buf)-p < int(l) {
					complete = false
					break
				}
				v, err := types.ParseBinary(columnTypes[i], buf[p:p+int(l)])
				if err != nil {
					return err
				}
				vals[i] = v
				p += int(l)
			}
			if !complete {
				break
			}
			if err := row(vals); err != nil {
				return err
			}
			pos = p
		}
		buf = append(buf[:0], buf[pos:]...)
	}
	if !headerDone && len(buf) > 0 {
		return pgerror.New(pgerror.BadCopyFileFormat, "COPY file signature not recognized")
	}
	if headerDone && len(buf) > 0 {
		return pgerror.New(pgerror.BadCopyFileFormat, "unexpected EOF in COPY data")
	}
	return nil
}
