package sql

import (
	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
)

// listenStatement is LISTEN; it takes effect when its block commits
// (notify.go).
type listenStatement struct{ st *ast.Listen }

func (s listenStatement) String() string { return "LISTEN " + parse.QuoteIdent(s.st.Channel) }

func (s listenStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "LISTEN", x.sess.queueListen(s.st.Channel, true)
}

// unlistenStatement is UNLISTEN channel, and UNLISTEN * (Channel "").
type unlistenStatement struct{ st *ast.Unlisten }

func (s unlistenStatement) String() string {
	if s.st.Channel == "" {
		return "UNLISTEN *"
	}
	return "UNLISTEN " + parse.QuoteIdent(s.st.Channel)
}

func (s unlistenStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "UNLISTEN", x.sess.queueListen(s.st.Channel, false)
}

// notifyStatement is NOTIFY; the payload is delivered at commit.
type notifyStatement struct{ st *ast.Notify }

func (s notifyStatement) String() string { return "NOTIFY " + parse.QuoteIdent(s.st.Channel) }

func (s notifyStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "NOTIFY", x.sess.queueNotify(s.st.Channel, s.st.Payload)
}
