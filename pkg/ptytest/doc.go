// Package ptytest opens pseudo-terminals for tests, with the kernel's own
// interface, so tests need no pty library. It is Linux only; its callers
// are tests built for Linux.
package ptytest
