package wire

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgproto3"

	"cdcdb/pgerror"
)

// authenticate runs the authentication exchange for user: trust when no
// password is configured, SCRAM-SHA-256 otherwise. It ends with
// AuthenticationOk sent, or returns the error to send as FATAL.
//
// With a RoleDirectory, the user must be a role that may log in, and in
// password mode each role proves its own password. As in PostgreSQL, a
// role that does not exist is named in trust mode (28000) but in password
// mode goes through a mock exchange that fails like a wrong password, so
// that a client cannot probe for role names.
func (c *conn) authenticate(user string) error {
	v := c.srv.verifier
	var role LoginRole
	roles := c.srv.cfg.Roles
	if roles != nil {
		var err error
		if role, err = roles.LoginRole(user); err != nil {
			return err
		}
		if v == nil {
			if !role.Exists {
				return roleDoesNotExist(user)
			}
			if !role.CanLogin {
				return notPermittedToLogIn(user)
			}
		} else if v = roleVerifier(role.Verifiers); v == nil || !role.Exists {
			v = c.srv.mockVerifier(user)
		}
	}
	if v == nil {
		return c.send(&pgproto3.AuthenticationOk{})
	}

	c.send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{scramMechanism}})
	c.be.SetAuthType(pgproto3.AuthTypeSASL)
	msg, err := c.receiveAuth()
	if err != nil {
		return err
	}
	initial, ok := msg.(*pgproto3.SASLInitialResponse)
	if !ok {
		return unexpectedAuthMessage(msg)
	}
	if initial.AuthMechanism != scramMechanism {
		return pgerror.New(pgerror.ProtocolViolation, "client selected an invalid SASL authentication mechanism")
	}
	x := v.newExchange()
	serverFirst, err := x.clientFirst(initial.Data)
	if err != nil {
		return err
	}

	c.send(&pgproto3.AuthenticationSASLContinue{Data: serverFirst})
	c.be.SetAuthType(pgproto3.AuthTypeSASLContinue)
	msg, err = c.receiveAuth()
	if err != nil {
		return err
	}
	response, ok := msg.(*pgproto3.SASLResponse)
	if !ok {
		return unexpectedAuthMessage(msg)
	}
	serverFinal, err := x.clientFinal(response.Data)
	if errors.Is(err, errSCRAMBadProof) {
		c.log.Info("password authentication failed")
		return &pgerror.Error{Code: pgerror.InvalidPassword, Message: fmt.Sprintf("password authentication failed for user %q", user)}
	}
	if err != nil {
		return err
	}
	if roles != nil && !role.CanLogin {
		return notPermittedToLogIn(user)
	}

	c.send(&pgproto3.AuthenticationSASLFinal{Data: serverFinal})
	c.be.SetAuthType(pgproto3.AuthTypeOk)
	return c.send(&pgproto3.AuthenticationOk{})
}

// receiveAuth reads the client's next authentication message. A message that
// does not decode is a protocol violation; a dead socket is just returned.
func (c *conn) receiveAuth() (pgproto3.FrontendMessage, error) {
	msg, err := c.be.Receive()
	if err != nil && !c.tr.failed() {
		return nil, protocolError(err)
	}
	return msg, err
}

func unexpectedAuthMessage(msg pgproto3.FrontendMessage) error {
	return pgerror.New(pgerror.ProtocolViolation, "expected SASL response, got message type %d", messageType(msg))
}
