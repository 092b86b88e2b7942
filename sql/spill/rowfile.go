package spill

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// Codec turns a row into bytes and back, losslessly: a row read back from
// a spill must be the row written (the data file's row codec is one).
type Codec struct {
	Append func(dst []byte, row []types.Value) ([]byte, error)
	Decode func(b []byte) ([]types.Value, error)
}

// fileBufferBytes is the buffer of each open RowFile, for writing and then
// reading; a merge of mergeFanIn runs holds that many.
const fileBufferBytes = 32 << 10

// RowFile is a sequence of rows in a temporary file: appended, then read
// back once in the order written. The file is unlinked when made, so the
// rows go away with the RowFile (Close) or the process.
type RowFile struct {
	codec Codec
	file  *os.File
	w     *bufio.Writer
	r     *bufio.Reader
	buf   []byte
	rows  int64
	bytes int64
}

// NewRowFile makes an empty row file in dir ("": the system's temporary
// directory).
func NewRowFile(dir string, codec Codec) (*RowFile, error) {
	f, err := os.CreateTemp(dir, "cdcdb-spill-*")
	if err != nil {
		return nil, spillWriteError(err)
	}
	// Unlinked at once: the open file stays readable, and nothing is left
	// behind whatever way the statement ends.
	if err := os.Remove(f.Name()); err != nil {
		_ = f.Close()
		return nil, spillWriteError(err)
	}
	return &RowFile{codec: codec, file: f, w: bufio.NewWriterSize(f, fileBufferBytes)}, nil
}

func spillWriteError(err error) error {
	return pgerror.New(pgerror.DiskFull, "could not write to temporary file: %v", err)
}

func spillReadError(err error) error {
	return pgerror.New(pgerror.IOError, "could not read from temporary file: %v", err)
}

// Rows is the number of rows appended.
func (f *RowFile) Rows() int64 { return f.rows }

// Bytes is the size of the file.
func (f *RowFile) Bytes() int64 { return f.bytes }

// Append writes one row at the end.
func (f *RowFile) Append(row []types.Value) error {
	enc, err := f.codec.Append(f.buf[:0], row)
	if err != nil {
		return codecError{err}
	}
	f.buf = enc
	var head [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(head[:], uint64(len(enc)))
	if _, err := f.w.Write(head[:n]); err != nil {
		return spillWriteError(err)
	}
	if _, err := f.w.Write(enc); err != nil {
		return spillWriteError(err)
	}
	f.rows++
	f.bytes += int64(n + len(enc))
	return nil
}

// Rewind ends writing and starts reading from the first row.
func (f *RowFile) Rewind() error {
	if f.w != nil {
		if err := f.w.Flush(); err != nil {
			return spillWriteError(err)
		}
		f.w = nil
	}
	if _, err := f.file.Seek(0, io.SeekStart); err != nil {
		return spillReadError(err)
	}
	if f.r == nil {
		f.r = bufio.NewReaderSize(f.file, fileBufferBytes)
	} else {
		f.r.Reset(f.file)
	}
	return nil
}

// Next reads the next row, nil at the end.
func (f *RowFile) Next() ([]types.Value, error) {
	n, err := binary.ReadUvarint(f.r)
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, spillReadError(err)
	}
	if uint64(cap(f.buf)) < n {
		f.buf = make([]byte, n)
	}
	f.buf = f.buf[:n]
	if _, err := io.ReadFull(f.r, f.buf); err != nil {
		return nil, spillReadError(err)
	}
	row, err := f.codec.Decode(f.buf)
	if err != nil {
		return nil, spillReadError(err)
	}
	return row, nil
}

// codecError is a row the codec could not encode: not a failure of the
// file, so a Sorter keeps such rows in memory instead.
type codecError struct{ err error }

func (e codecError) Error() string { return e.err.Error() }
func (e codecError) Unwrap() error { return e.err }

func isCodecError(err error) bool {
	var c codecError
	return errors.As(err, &c)
}

// Close removes the file.
func (f *RowFile) Close() {
	if f == nil || f.file == nil {
		return
	}
	_ = f.file.Close()
	f.file = nil
}
