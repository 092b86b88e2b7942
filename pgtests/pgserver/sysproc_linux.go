package pgserver

import "syscall"

// childProcAttr makes the kernel kill a server whose test binary died (a
// panic, a timeout), so no server outlives its test run.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
