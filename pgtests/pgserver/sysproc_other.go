//go:build !linux

package pgserver

import "syscall"

func childProcAttr() *syscall.SysProcAttr { return nil }
