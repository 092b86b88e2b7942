package sql

import (
	"errors"
	"io/fs"
	"os"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/storage"
	"cdcdb/types"
)

// cdcdb.backup(path text) writes an online backup of the whole database
// (tables, history, flows and their state, streaming tables, sources'
// checkpoints) to a new file at path on the server's machine, and returns
// the path. The copy is as of the newest commit when the call starts,
// whatever transaction the calling session is in, and is taken beside
// writers and flows (storage's Backup). A server started with -data path
// serves it. Only a superuser may call it (it copies every table, and
// writes a file on the server), as PostgreSQL lets only a superuser COPY
// to a server file.
//
// cdcdbBuiltins holds the scalar functions of the cdcdb schema, which are
// called by their qualified name only.
var cdcdbBuiltins = map[string]*builtins.Func{
	"backup": {Resolve: builtins.Signature(types.Text, types.Text), Strict: true, Call: callBackup},
}

func (b *binder) bindCdcdbFunc(fc *ast.FuncCall) (eval.Expr, error) {
	name := fc.Name.Name()
	var args []eval.Expr
	for _, a := range fc.Args {
		x, err := b.bind(a)
		if err != nil {
			return nil, err
		}
		args = append(args, x)
	}
	bi, ok := cdcdbBuiltins[name]
	if !ok || fc.Star || fc.Distinct || len(fc.OrderBy) > 0 || fc.Filter != nil {
		return nil, noFunctionError("cdcdb."+name, args, fc.Pos)
	}
	coerced, t, err := bi.Resolve(b, args)
	if err != nil {
		if err == builtins.ErrNoFunction {
			return nil, noFunctionError("cdcdb."+name, args, fc.Pos)
		}
		return nil, withPos(err, fc)
	}
	return &eval.FuncCall{Name: name, Args: coerced, Fn: bi.Call, Strict: bi.Strict, T: t}, nil
}

func callBackup(ec eval.Context, a []types.Value) (types.Value, error) {
	x := stmtOf(ec)
	if !x.sess.isSuperuser(x.catalogOf()) {
		return nil, pgerror.New(pgerror.InsufficientPrivilege, "permission denied for function backup")
	}
	path := a[0].(string)
	if _, err := x.sess.engine.db.Backup(x.ctx, path); err != nil {
		if x.ctx.Err() != nil {
			return nil, cancelError(x.ctx)
		}
		return nil, backupError(path, err)
	}
	return path, nil
}

// backupError reports a failed backup as PostgreSQL reports a failed
// write to a server file (COPY TO): the SQLSTATE follows the OS error.
func backupError(path string, err error) error {
	switch {
	case errors.Is(err, storage.ErrBackupRelativePath):
		return pgerror.New(pgerror.InvalidName, "relative path not allowed for a backup: \"%s\"", path).
			WithHint("Give the backup's absolute path on the server's machine.")
	case errors.Is(err, storage.ErrBackupExists), errors.Is(err, fs.ErrExist):
		return pgerror.New(pgerror.DuplicateFile, "could not write backup to \"%s\": the file already exists", path)
	case errors.Is(err, fs.ErrNotExist):
		return pgerror.New(pgerror.UndefinedFile, "could not write backup to \"%s\": %s", path, osReason(err))
	case errors.Is(err, fs.ErrPermission):
		return pgerror.New(pgerror.InsufficientPrivilege, "could not write backup to \"%s\": %s", path, osReason(err))
	case pgerror.CodeOf(err) != "" && pgerror.CodeOf(err) != pgerror.InternalError:
		return err
	}
	return pgerror.New(pgerror.IOError, "could not write backup to \"%s\": %s", path, osReason(err))
}

// osReason is the OS's words for a failed file operation, without the
// path the message already names.
func osReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}
