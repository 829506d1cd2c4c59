package s3test

import "syscall"

// sysProcAttr kills the server with the test process, however it ends.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
