package wire

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"cdcdb/pgerror"
)

// authenticate runs the authentication exchange for user by method
// (loginMethod): trust, or SCRAM-SHA-256. It ends with AuthenticationOk
// sent and says whether the role is a superuser, or returns the error to
// send as FATAL. A wrong password is answered no sooner than the delay
// after failed logins allows (delayFailedLogin), and not at all when that
// is past deadline.
//
// With a RoleDirectory, the user must be a role that may log in, and with
// SCRAM each role proves its own password. As in PostgreSQL, a role that
// does not exist is named under trust (28000) but under SCRAM goes
// through a mock exchange that fails like a wrong password, so that a
// client cannot probe for role names. Without a RoleDirectory every user
// counts as a superuser and SCRAM checks the configured password.
func (c *conn) authenticate(user string, method AuthMethod, deadline time.Time) (superuser bool, err error) {
	var v *scramVerifier
	if method == MethodSCRAM {
		if v = c.srv.verifier; v == nil {
			v = c.srv.mockVerifier(user)
		}
	}
	role := LoginRole{Exists: true, CanLogin: true, Superuser: true}
	roles := c.srv.cfg.Roles
	if roles != nil {
		if role, err = roles.LoginRole(user); err != nil {
			return false, err
		}
		if v == nil {
			if !role.Exists {
				return false, roleDoesNotExist(user)
			}
			if !role.CanLogin {
				return false, notPermittedToLogIn(user)
			}
		} else if v = roleVerifier(role.Verifiers); v == nil || !role.Exists {
			v = c.srv.mockVerifier(user)
		}
	}
	if v == nil {
		return role.Superuser, c.send(&pgproto3.AuthenticationOk{})
	}
	return role.Superuser, c.scramExchange(user, v, role, deadline)
}

// scramExchange proves user's password against v, and lets the role in
// when it may log in.
func (c *conn) scramExchange(user string, v *scramVerifier, role LoginRole, deadline time.Time) error {

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
		if err := c.delayFailedLogin(deadline); err != nil {
			return err
		}
		return &pgerror.Error{Code: pgerror.InvalidPassword, Message: fmt.Sprintf("password authentication failed for user %q", user)}
	}
	if err != nil {
		return err
	}
	if !role.CanLogin {
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
	if err != nil && !c.tr.failed() && !isTimeout(err) {
		return nil, protocolError(err)
	}
	return msg, err
}

func unexpectedAuthMessage(msg pgproto3.FrontendMessage) error {
	return pgerror.New(pgerror.ProtocolViolation, "expected SASL response, got message type %d", messageType(msg))
}
