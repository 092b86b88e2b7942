package wire

import (
	"fmt"
	"net"
	"strings"
)

// This file owns the connection rules: a pg_hba.conf in PostgreSQL's line
// format, parsed once at start (ParseConnectionRules) and matched against
// each connection before it authenticates (ConnectionRules.match). Only the
// lines that mean something for a TCP-only server with SCRAM passwords are
// accepted; anything else is refused with its line number, never ignored.

// ConnectionType is the first field of a rule: which transports it covers.
type ConnectionType int

const (
	// ConnHost matches any TCP connection, TLS or not.
	ConnHost ConnectionType = iota
	// ConnHostSSL matches only connections that upgraded to TLS.
	ConnHostSSL
	// ConnHostNoSSL matches only clear-text connections.
	ConnHostNoSSL
)

// AuthMethod is what a matching rule asks of the client.
type AuthMethod int

const (
	// MethodSCRAM: the role proves its password with SCRAM-SHA-256.
	MethodSCRAM AuthMethod = iota
	// MethodTrust lets the role in without a password (loopback rules only).
	MethodTrust
	// MethodReject refuses the connection.
	MethodReject
)

// ConnectionRules is a parsed rule file. The first rule that matches a
// connection decides; a connection no rule matches is refused, as
// PostgreSQL refuses it.
type ConnectionRules struct {
	rules []connectionRule
}

// connectionRule is one line of the file.
type connectionRule struct {
	line      int
	connType  ConnectionType
	databases []ruleName
	users     []ruleName
	network   *net.IPNet // nil: all addresses
	method    AuthMethod
}

// ruleName is one entry of a database or user list: a name, or (unquoted)
// the keyword all or sameuser.
type ruleName struct {
	name     string
	all      bool
	sameUser bool // databases only: the database named like the user
}

// RuleFileError is a line of a rule file that cannot be taken: the server
// refuses to start with it rather than run with rules it misread.
type RuleFileError struct {
	Line    int
	Message string
}

func (e *RuleFileError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Message) }

// ParseConnectionRules reads a pg_hba.conf:
//
//	host|hostssl|hostnossl  database  user  address  method
//
// database is all, sameuser or names; user is all or names (lists with
// commas, names in double quotes to be taken literally); address is all, a
// CIDR (10.0.0.0/8, ::1/128), or an IP address followed by a mask field;
// method is scram-sha-256, reject, or trust (only when address lies in the
// loopback network). # starts a comment. A file with no rule refuses every
// connection, as in PostgreSQL.
func ParseConnectionRules(text string) (*ConnectionRules, error) {
	rs := &ConnectionRules{}
	for i, line := range strings.Split(text, "\n") {
		fields, err := splitRuleFields(line)
		if err != nil {
			return nil, &RuleFileError{Line: i + 1, Message: err.Error()}
		}
		if len(fields) == 0 {
			continue
		}
		r, err := parseRule(fields)
		if err != nil {
			return nil, &RuleFileError{Line: i + 1, Message: err.Error()}
		}
		r.line = i + 1
		rs.rules = append(rs.rules, r)
	}
	return rs, nil
}

// ruleToken is one item of a field, with whether it was quoted (a quoted
// "all" is a role named all, not the keyword).
type ruleToken struct {
	text   string
	quoted bool
}

// splitRuleFields cuts a line into fields, each a comma-separated list of
// tokens, as PostgreSQL's tokenizer does: whitespace separates fields
// except right after a comma, double quotes protect spaces, commas and #,
// and "" inside quotes is a quote.
func splitRuleFields(line string) ([][]ruleToken, error) {
	var fields [][]ruleToken
	var field []ruleToken
	i := 0
	for {
		for i < len(line) && isRuleSpace(line[i]) {
			i++
		}
		if i == len(line) || line[i] == '#' {
			break
		}
		var tok strings.Builder
		quoted, inQuotes := false, false
		for ; i < len(line); i++ {
			ch := line[i]
			if inQuotes {
				if ch == '"' {
					if i+1 < len(line) && line[i+1] == '"' {
						tok.WriteByte('"')
						i++
						continue
					}
					inQuotes = false
					continue
				}
				tok.WriteByte(ch)
				continue
			}
			if ch == '"' {
				quoted, inQuotes = true, true
				continue
			}
			if isRuleSpace(ch) || ch == ',' || ch == '#' {
				break
			}
			tok.WriteByte(ch)
		}
		if inQuotes {
			return nil, fmt.Errorf("unterminated quoted string")
		}
		field = append(field, ruleToken{text: tok.String(), quoted: quoted})
		if i < len(line) && line[i] == ',' {
			i++
			continue // the list goes on, past any whitespace
		}
		fields = append(fields, field)
		field = nil
	}
	if field != nil {
		return nil, fmt.Errorf("list ends with a comma")
	}
	return fields, nil
}

func isRuleSpace(ch byte) bool { return ch == ' ' || ch == '\t' || ch == '\r' }

// parseRule understands one non-empty line's fields. The messages are
// PostgreSQL's where it has one.
func parseRule(fields [][]ruleToken) (connectionRule, error) {
	var r connectionRule
	single := func(f []ruleToken, what string) (ruleToken, error) {
		if len(f) != 1 {
			return ruleToken{}, fmt.Errorf("multiple values specified for %s", what)
		}
		return f[0], nil
	}
	typ, err := single(fields[0], "connection type")
	if err != nil {
		return r, err
	}
	switch typ.text {
	case "host":
		r.connType = ConnHost
	case "hostssl":
		r.connType = ConnHostSSL
	case "hostnossl":
		r.connType = ConnHostNoSSL
	case "local":
		return r, fmt.Errorf("connection type \"local\" is not supported: cdcdb listens on TCP only")
	case "hostgssenc", "hostnogssenc":
		return r, fmt.Errorf("connection type %q is not supported: cdcdb has no GSSAPI encryption", typ.text)
	default:
		return r, fmt.Errorf("invalid connection type %q", typ.text)
	}
	if len(fields) < 2 {
		return r, fmt.Errorf("end-of-line before database specification")
	}
	if r.databases, err = parseRuleNames(fields[1], true); err != nil {
		return r, err
	}
	if len(fields) < 3 {
		return r, fmt.Errorf("end-of-line before role specification")
	}
	if r.users, err = parseRuleNames(fields[2], false); err != nil {
		return r, err
	}
	if len(fields) < 4 {
		return r, fmt.Errorf("end-of-line before IP address specification")
	}
	addr, err := single(fields[3], "IP address")
	if err != nil {
		return r, err
	}
	rest := fields[4:]
	if r.network, rest, err = parseRuleAddress(addr, rest); err != nil {
		return r, err
	}
	if len(rest) == 0 {
		return r, fmt.Errorf("end-of-line before authentication method")
	}
	method, err := single(rest[0], "authentication type")
	if err != nil {
		return r, err
	}
	switch method.text {
	case "scram-sha-256":
		r.method = MethodSCRAM
	case "reject":
		r.method = MethodReject
	case "trust":
		r.method = MethodTrust
		if !isLoopbackNetwork(r.network) {
			return r, fmt.Errorf("authentication method \"trust\" is only allowed for loopback addresses (127.0.0.1/32, ::1/128): anyone who can reach the server would get in")
		}
	case "md5", "password", "gss", "sspi", "ident", "peer", "ldap", "radius", "cert", "pam", "bsd":
		return r, fmt.Errorf("authentication method %q is not supported by cdcdb (scram-sha-256, trust and reject are)", method.text)
	default:
		return r, fmt.Errorf("invalid authentication method %q", method.text)
	}
	if len(rest) > 1 {
		return r, fmt.Errorf("authentication option %q is not supported by cdcdb", rest[1][0].text)
	}
	return r, nil
}

// parseRuleNames reads a database or user list. Group (+role) and file
// (@file) entries are refused: cdcdb has no role membership to match
// groups by, and reads one file.
func parseRuleNames(f []ruleToken, databases bool) ([]ruleName, error) {
	out := make([]ruleName, 0, len(f))
	for _, t := range f {
		switch {
		case !t.quoted && t.text == "all":
			out = append(out, ruleName{all: true})
		case !t.quoted && t.text == "sameuser" && databases:
			out = append(out, ruleName{sameUser: true})
		case !t.quoted && databases && (t.text == "samerole" || t.text == "samegroup"):
			return nil, fmt.Errorf("database keyword %q is not supported: cdcdb has no role membership yet", t.text)
		case !t.quoted && databases && t.text == "replication":
			return nil, fmt.Errorf("database keyword \"replication\" is not supported: cdcdb serves no physical replication")
		case !t.quoted && strings.HasPrefix(t.text, "+"):
			return nil, fmt.Errorf("group entry %q is not supported: cdcdb has no role membership yet", t.text)
		case !t.quoted && strings.HasPrefix(t.text, "@"):
			return nil, fmt.Errorf("file inclusion %q is not supported", t.text)
		case t.text == "":
			return nil, fmt.Errorf("empty name in list")
		default:
			out = append(out, ruleName{name: t.text})
		}
	}
	return out, nil
}

// parseRuleAddress reads the address field (and the mask field after an
// address without a prefix length) and returns the fields left.
func parseRuleAddress(addr ruleToken, rest [][]ruleToken) (*net.IPNet, [][]ruleToken, error) {
	if !addr.quoted {
		switch addr.text {
		case "all":
			return nil, rest, nil
		case "samehost", "samenet":
			return nil, nil, fmt.Errorf("address keyword %q is not supported: give the network as a CIDR", addr.text)
		}
	}
	if ipText, bits, ok := strings.Cut(addr.text, "/"); ok {
		ip := net.ParseIP(ipText)
		if ip == nil {
			return nil, nil, fmt.Errorf("invalid IP address %q", ipText)
		}
		_, network, err := net.ParseCIDR(addr.text)
		if err != nil || bits == "" {
			return nil, nil, fmt.Errorf("invalid CIDR mask in address %q", addr.text)
		}
		return network, rest, nil
	}
	ip := net.ParseIP(addr.text)
	if ip == nil {
		return nil, nil, fmt.Errorf("host names are not supported in address %q: give an IP address with a CIDR mask", addr.text)
	}
	if len(rest) == 0 {
		return nil, nil, fmt.Errorf("end-of-line before netmask specification")
	}
	if len(rest[0]) != 1 {
		return nil, nil, fmt.Errorf("multiple values specified for netmask")
	}
	maskText := rest[0][0].text
	maskIP := net.ParseIP(maskText)
	if maskIP == nil {
		return nil, nil, fmt.Errorf("invalid IP mask %q", maskText)
	}
	var mask net.IPMask
	if v4 := ip.To4(); v4 != nil {
		ip = v4
		if m4 := maskIP.To4(); m4 != nil {
			mask = net.IPMask(m4)
		}
	} else if maskIP.To4() == nil {
		mask = net.IPMask(maskIP.To16())
	}
	if mask == nil {
		return nil, nil, fmt.Errorf("IP address and mask do not match in address %q %q", addr.text, maskText)
	}
	if ones, bits := mask.Size(); ones == 0 && bits == 0 {
		return nil, nil, fmt.Errorf("invalid IP mask %q: its ones are not contiguous", maskText)
	}
	return &net.IPNet{IP: ip.Mask(mask), Mask: mask}, rest[1:], nil
}

// isLoopbackNetwork reports whether every address of n is a loopback one.
func isLoopbackNetwork(n *net.IPNet) bool {
	if n == nil {
		return false
	}
	ones, bits := n.Mask.Size()
	if v4 := n.IP.To4(); v4 != nil && bits == 32 {
		return v4[0] == 127 && ones >= 8
	}
	return n.IP.Equal(net.IPv6loopback) && ones == 128
}

// connectionAttempt is what the rules are matched against.
type connectionAttempt struct {
	ssl      bool
	addr     net.IP
	user     string
	database string
}

// match finds the first rule for a; ok is false when none matches.
func (rs *ConnectionRules) match(a connectionAttempt) (connectionRule, bool) {
	for _, r := range rs.rules {
		if r.matches(a) {
			return r, true
		}
	}
	return connectionRule{}, false
}

func (r connectionRule) matches(a connectionAttempt) bool {
	switch r.connType {
	case ConnHostSSL:
		if !a.ssl {
			return false
		}
	case ConnHostNoSSL:
		if a.ssl {
			return false
		}
	}
	if r.network != nil && (a.addr == nil || !r.network.Contains(a.addr)) {
		return false
	}
	return matchesRuleName(r.users, a.user, "") && matchesRuleName(r.databases, a.database, a.user)
}

func matchesRuleName(names []ruleName, name, user string) bool {
	for _, n := range names {
		if n.all || (n.sameUser && name == user) || (!n.all && !n.sameUser && n.name == name) {
			return true
		}
	}
	return false
}

// encryptionState is how PostgreSQL names the transport in its refusals.
func (a connectionAttempt) encryptionState() string {
	if a.ssl {
		return "SSL encryption"
	}
	return "no encryption"
}
