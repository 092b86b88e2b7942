package wire

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"cdcdb/pgerror"
)

// LoginRole is what wire needs to know of a role to let it in.
type LoginRole struct {
	Exists   bool
	CanLogin bool
	// Superuser roles may take the slots kept by
	// Config.SuperuserReservedConnections.
	Superuser bool
	// Verifiers are the role's SCRAM-SHA-256 verifiers in PostgreSQL's
	// text form (SCRAMVerifiers); empty when the role has no password.
	Verifiers []string
}

// RoleDirectory is how wire learns who may log in; the SQL layer's
// engine implements it (cmd/cdcdb connects them). Without one, every user
// name is let in with the one configured password.
type RoleDirectory interface {
	LoginRole(name string) (LoginRole, error)
}

const scramVerifierPrefix = "SCRAM-SHA-256$"

// SCRAMVerifiers derives the verifiers to store for password, in
// PostgreSQL's text form SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey,
// one per spelling clients derive their keys from (passwordForms), all
// with one fresh salt. The first is PostgreSQL's own (SASLprep'd) when the
// password is not ASCII; for an ASCII password there is only one.
func SCRAMVerifiers(password string) []string {
	v := newSCRAMVerifier(password)
	salt := base64.StdEncoding.EncodeToString(v.salt)
	out := make([]string, 0, len(v.keys))
	for _, k := range v.keys {
		out = append(out, fmt.Sprintf("%s%d:%s$%s:%s", scramVerifierPrefix, v.iterations, salt,
			base64.StdEncoding.EncodeToString(k.stored[:]), base64.StdEncoding.EncodeToString(k.server)))
	}
	if len(out) > 1 {
		// PostgreSQL stores the SASLprep'd form: put it first.
		prepped := passwordForms(password)
		for i, f := range prepped {
			if f == saslPrep(password) {
				out[0], out[i] = out[i], out[0]
				break
			}
		}
	}
	return out
}

// IsSCRAMVerifier reports whether text is a SCRAM-SHA-256 verifier in
// PostgreSQL's text form (what pg_dumpall writes after PASSWORD), which is
// stored as given rather than taken for a password.
func IsSCRAMVerifier(text string) bool {
	_, err := parseSCRAMVerifier(text)
	return err == nil
}

// parseSCRAMVerifier reads one verifier in PostgreSQL's text form.
func parseSCRAMVerifier(text string) (*scramVerifier, error) {
	rest, ok := strings.CutPrefix(text, scramVerifierPrefix)
	if !ok {
		return nil, fmt.Errorf("not a SCRAM-SHA-256 verifier")
	}
	params, keys, ok := strings.Cut(rest, "$")
	if !ok {
		return nil, fmt.Errorf("malformed SCRAM-SHA-256 verifier")
	}
	iterText, saltText, ok1 := strings.Cut(params, ":")
	storedText, serverText, ok2 := strings.Cut(keys, ":")
	iterations, err := strconv.Atoi(iterText)
	if !ok1 || !ok2 || err != nil || iterations < 1 {
		return nil, fmt.Errorf("malformed SCRAM-SHA-256 verifier")
	}
	salt, err1 := base64.StdEncoding.DecodeString(saltText)
	stored, err2 := base64.StdEncoding.DecodeString(storedText)
	server, err3 := base64.StdEncoding.DecodeString(serverText)
	if err1 != nil || err2 != nil || err3 != nil || len(salt) == 0 || len(stored) != sha256.Size || len(server) != sha256.Size {
		return nil, fmt.Errorf("malformed SCRAM-SHA-256 verifier")
	}
	v := &scramVerifier{salt: salt, iterations: iterations, keys: []scramKeys{{server: server}}}
	copy(v.keys[0].stored[:], stored)
	return v, nil
}

// roleVerifier joins a role's verifiers into one that accepts any of
// them; verifiers with another salt or iteration count than the first are
// left out, as one exchange offers one salt. Nil when there is none.
func roleVerifier(texts []string) *scramVerifier {
	var v *scramVerifier
	for _, t := range texts {
		one, err := parseSCRAMVerifier(t)
		if err != nil {
			continue
		}
		if v == nil {
			v = one
			continue
		}
		if one.iterations == v.iterations && hmac.Equal(one.salt, v.salt) {
			v.keys = append(v.keys, one.keys...)
		}
	}
	return v
}

// mockVerifier stands in for a role that does not exist or has no
// password, as PostgreSQL's mock authentication does: the exchange runs to
// its end and fails like a wrong password, with a salt that depends only
// on the name, so a client cannot tell which roles exist.
func (s *Server) mockVerifier(user string) *scramVerifier {
	m := hmac.New(sha256.New, s.mockSecret[:])
	m.Write([]byte(user))
	return &scramVerifier{salt: m.Sum(nil)[:scramSaltLen], iterations: scramIterations}
}

func newMockSecret() (secret [32]byte) {
	rand.Read(secret[:])
	return secret
}

// roleDoesNotExist and notPermittedToLogIn are PostgreSQL's refusals of a
// login by role.
func roleDoesNotExist(user string) error {
	return &pgerror.Error{Code: pgerror.InvalidAuthorizationSpecification, Message: fmt.Sprintf("role \"%s\" does not exist", user)}
}

func notPermittedToLogIn(user string) error {
	return &pgerror.Error{Code: pgerror.InvalidAuthorizationSpecification, Message: fmt.Sprintf("role \"%s\" is not permitted to log in", user)}
}
