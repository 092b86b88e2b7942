//go:build !linux

package wire

import (
	"io"
	"net"
)

// socketIO returns what the connection reads and writes its socket through:
// elsewhere than on Linux, the net.Conn itself (see sockio_linux.go).
func socketIO(nc net.Conn, plain bool) io.ReadWriter { return nc }
