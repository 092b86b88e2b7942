//go:build !linux

package main

// restartWithLazyFree does nothing here: GODEBUG=madvdontneed is a Linux
// setting (lazyfree_linux.go).
func restartWithLazyFree() {}
