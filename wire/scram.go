package wire

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/secure/precis"
	"golang.org/x/text/unicode/norm"

	"cdcdb/pgerror"
)

// SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL speaks it: no channel
// binding (we do not offer SCRAM-SHA-256-PLUS), the user name inside the SCRAM
// messages ignored in favour of the startup packet's, and PostgreSQL's salt
// length, nonce length and iteration count.
const (
	scramMechanism  = "SCRAM-SHA-256"
	scramIterations = 4096 // scram_iterations default
	scramSaltLen    = 16   // SCRAM_DEFAULT_SALT_LEN
	scramNonceLen   = 18   // SCRAM_RAW_NONCE_LEN
)

// errSCRAMBadProof means the client does not know the password.
var errSCRAMBadProof = errors.New("SCRAM proof does not match")

// scramVerifier is what the server keeps instead of the password: for each
// accepted spelling of it, StoredKey = H(HMAC(SaltedPassword, "Client Key"))
// and ServerKey = HMAC(SaltedPassword, "Server Key").
type scramVerifier struct {
	salt       []byte
	iterations int
	keys       []scramKeys
}

type scramKeys struct {
	stored [sha256.Size]byte
	server []byte
}

func newSCRAMVerifier(password string) *scramVerifier {
	salt := make([]byte, scramSaltLen)
	rand.Read(salt)
	return deriveSCRAMVerifier(password, salt, scramIterations)
}

func deriveSCRAMVerifier(password string, salt []byte, iterations int) *scramVerifier {
	v := &scramVerifier{salt: salt, iterations: iterations}
	for _, form := range passwordForms(password) {
		salted, err := pbkdf2.Key(sha256.New, form, salt, iterations, sha256.Size)
		if err != nil {
			// Only FIPS mode refuses parameters, and ours are within its
			// limits; a form that cannot be derived simply never matches.
			continue
		}
		v.keys = append(v.keys, scramKeys{
			stored: sha256.Sum256(hmacSHA256(salted, "Client Key")),
			server: hmacSHA256(salted, "Server Key"),
		})
	}
	return v
}

// passwordForms lists the byte strings a client may derive its SCRAM keys
// from. RFC 5802 has clients normalize the password with SASLprep, but they
// disagree in practice: libpq applies SASLprep (NFKC), pgx applies the PRECIS
// OpaqueString profile (NFC), and both fall back to the raw bytes when their
// normalization fails. PostgreSQL itself stores the SASLprep'd form. Accepting
// each spelling lets every client in with the one configured password; for an
// ASCII password (the usual case) all forms are the same string.
func passwordForms(password string) []string {
	forms := []string{password}
	add := func(s string) {
		if !slices.Contains(forms, s) {
			forms = append(forms, s)
		}
	}
	if isASCII(password) {
		return forms
	}
	add(saslPrep(password))
	if s, err := precis.OpaqueString.String(password); err == nil {
		add(s)
	}
	return forms
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// saslPrep applies SASLprep's mapping and normalization steps (RFC 4013 2.1,
// 2.2): non-ASCII spaces become U+0020, "commonly mapped to nothing" code
// points vanish, then NFKC. The prohibited-output and bidi checks are left
// out: where they would reject a password, clients fall back to the raw form,
// which passwordForms accepts anyway.
func saslPrep(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 0x00A0, r == 0x1680, r >= 0x2000 && r <= 0x200B, r == 0x202F, r == 0x205F, r == 0x3000:
			b.WriteByte(' ')
		case r == 0x00AD, r == 0x034F, r == 0x1806, r >= 0x180B && r <= 0x180D, r >= 0x200C && r <= 0x200D,
			r == 0x2060, r >= 0xFE00 && r <= 0xFE0F, r == 0xFEFF:
		default:
			b.WriteRune(r)
		}
	}
	return norm.NFKC.String(b.String())
}

func hmacSHA256(key []byte, msg string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

// scramExchange is one authentication attempt: client-first, server-first,
// client-final, server-final.
type scramExchange struct {
	v               *scramVerifier
	serverNonce     string
	gs2Header       string // "n,," or "y,,"; echoed back in client-final's c=
	clientFirstBare string
	serverFirst     string
	nonce           string // client nonce + server nonce
}

func (v *scramVerifier) newExchange() *scramExchange {
	raw := make([]byte, scramNonceLen)
	rand.Read(raw)
	return &scramExchange{v: v, serverNonce: base64.StdEncoding.EncodeToString(raw)}
}

func scramMalformed(detail string) *pgerror.Error {
	return &pgerror.Error{Code: pgerror.ProtocolViolation, Message: "malformed SCRAM message", Detail: detail}
}

// clientFirst takes client-first-message,
//
//	gs2-cbind-flag "," [authzid] "," [reserved-mext ","] "n=" user "," "r=" nonce ["," extensions]
//
// and returns server-first-message, "r=" nonce "," "s=" salt "," "i=" count.
func (x *scramExchange) clientFirst(data []byte) ([]byte, error) {
	msg := string(data)
	flag, rest, ok := strings.Cut(msg, ",")
	if !ok {
		return nil, scramMalformed("The message is missing the channel-binding flag.")
	}
	switch {
	case flag == "n", flag == "y":
		// 'y' means the client could bind but thinks we cannot, which is
		// true: we never advertise SCRAM-SHA-256-PLUS.
	case strings.HasPrefix(flag, "p="):
		return nil, scramMalformed("The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes channel binding data.")
	default:
		return nil, scramMalformed("Unexpected channel-binding flag \"" + flag + "\".")
	}
	authzid, bare, ok := strings.Cut(rest, ",")
	if !ok {
		return nil, scramMalformed("Comma expected after the channel-binding flag.")
	}
	if authzid != "" {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "client uses authorization identity, but it is not supported")
	}
	if strings.HasPrefix(bare, "m=") {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "client requires an unsupported SCRAM extension")
	}
	attrs := strings.Split(bare, ",")
	if len(attrs) < 2 || !strings.HasPrefix(attrs[0], "n=") {
		return nil, scramMalformed("Expected attribute \"n\" in client-first-message.")
	}
	clientNonce, ok := strings.CutPrefix(attrs[1], "r=")
	if !ok || clientNonce == "" || !isPrintableNonce(clientNonce) {
		return nil, scramMalformed("Expected a printable nonce in attribute \"r\" of client-first-message.")
	}

	x.gs2Header = flag + ",,"
	x.clientFirstBare = bare
	x.nonce = clientNonce + x.serverNonce
	x.serverFirst = "r=" + x.nonce + ",s=" + base64.StdEncoding.EncodeToString(x.v.salt) + ",i=" + strconv.Itoa(x.v.iterations)
	return []byte(x.serverFirst), nil
}

// isPrintableNonce checks RFC 5802's "printable": ASCII 0x21..0x7E except ','.
func isPrintableNonce(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7E || s[i] == ',' {
			return false
		}
	}
	return true
}

// clientFinal takes client-final-message,
//
//	"c=" base64(gs2-header) "," "r=" nonce ["," extensions] "," "p=" proof
//
// checks the proof and returns server-final-message, "v=" signature. A wrong
// proof is errSCRAMBadProof; anything else wrong is a protocol error.
func (x *scramExchange) clientFinal(data []byte) ([]byte, error) {
	msg := string(data)
	i := strings.LastIndex(msg, ",p=")
	if i < 0 {
		return nil, scramMalformed("Expected attribute \"p\" at the end of client-final-message.")
	}
	withoutProof, proofText := msg[:i], msg[i+len(",p="):]
	attrs := strings.Split(withoutProof, ",")
	if len(attrs) < 2 {
		return nil, scramMalformed("Expected attributes \"c\" and \"r\" in client-final-message.")
	}
	cbind, ok := strings.CutPrefix(attrs[0], "c=")
	if !ok {
		return nil, scramMalformed("Expected attribute \"c\" in client-final-message.")
	}
	if header, err := base64.StdEncoding.DecodeString(cbind); err != nil || string(header) != x.gs2Header {
		return nil, scramMalformed("SCRAM channel binding check failed.")
	}
	if attrs[1] != "r="+x.nonce {
		return nil, scramMalformed("Nonce does not match.")
	}
	proof, err := base64.StdEncoding.DecodeString(proofText)
	if err != nil || len(proof) != sha256.Size {
		return nil, scramMalformed("Malformed proof in client-final-message.")
	}

	authMessage := x.clientFirstBare + "," + x.serverFirst + "," + withoutProof
	for _, k := range x.v.keys {
		// ClientKey = proof XOR HMAC(StoredKey, AuthMessage); the client knew
		// the password iff H(ClientKey) is StoredKey.
		clientKey := hmacSHA256(k.stored[:], authMessage)
		subtle.XORBytes(clientKey, clientKey, proof)
		if got := sha256.Sum256(clientKey); subtle.ConstantTimeCompare(got[:], k.stored[:]) == 1 {
			return []byte("v=" + base64.StdEncoding.EncodeToString(hmacSHA256(k.server, authMessage))), nil
		}
	}
	return nil, errSCRAMBadProof
}
