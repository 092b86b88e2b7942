package types

import (
	"net/netip"

	"cdcdb/pgerror"
)

// inet holds a host address, optionally with a netmask, as its text form
// (netip's, which is PostgreSQL's for the addresses cdcdb shows: client
// addresses in pg_stat_activity). A /32 (IPv4) or /128 (IPv6) address prints
// without its mask, as in PostgreSQL.

// parseInet is inet_in.
func parseInet(s string) (Value, error) {
	t := trimSpace(s)
	if p, err := netip.ParsePrefix(t); err == nil {
		if p.Bits() == p.Addr().BitLen() {
			return p.Addr().String(), nil
		}
		return p.String(), nil
	}
	if a, err := netip.ParseAddr(t); err == nil {
		return a.String(), nil
	}
	return nil, pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type inet: \"%s\"", s)
}

// PostgreSQL's address families in inet's binary form.
const (
	pgsqlAFInet  = 2
	pgsqlAFInet6 = 3
)

// appendInetBinary is inet_send: family, bits, is_cidr, length, address.
func appendInetBinary(dst []byte, v Value) ([]byte, error) {
	s, ok := v.(string)
	if !ok {
		return nil, pgerror.New(pgerror.InternalError, "cannot encode %T as binary inet", v)
	}
	var addr netip.Addr
	bits := -1
	if p, err := netip.ParsePrefix(s); err == nil {
		addr, bits = p.Addr(), p.Bits()
	} else if a, err := netip.ParseAddr(s); err == nil {
		addr = a
	} else {
		return nil, pgerror.New(pgerror.InternalError, "inet value %q is not an address", s)
	}
	if bits < 0 {
		bits = addr.BitLen()
	}
	family := byte(pgsqlAFInet)
	if addr.Is6() && !addr.Is4In6() {
		family = pgsqlAFInet6
	}
	raw := addr.AsSlice()
	if family == pgsqlAFInet {
		a4 := addr.Unmap().As4()
		raw = a4[:]
	}
	dst = append(dst, family, byte(bits), 0, byte(len(raw)))
	return append(dst, raw...), nil
}

// parseInetBinary is inet_recv.
func parseInetBinary(b []byte) (Value, error) {
	if len(b) < 4 || len(b) != 4+int(b[3]) || (b[3] != 4 && b[3] != 16) {
		return nil, badBinary("invalid length in external \"inet\" value")
	}
	addr, ok := netip.AddrFromSlice(b[4:])
	if !ok {
		return nil, badBinary("invalid external \"inet\" value")
	}
	bits := int(b[1])
	if bits == addr.BitLen() {
		return addr.String(), nil
	}
	p, err := addr.Prefix(bits)
	if err != nil {
		return nil, badBinary("invalid bits in external \"inet\" value")
	}
	return netip.PrefixFrom(addr, p.Bits()).String(), nil
}
