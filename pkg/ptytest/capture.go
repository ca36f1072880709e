package ptytest

import (
	"bytes"
	"os"
)

// Capture reads all that the terminal side of a pty is sent, from now
// on, through controller. The returned function waits until the terminal
// side is closed (the test closes it once the command has ended) and
// returns what was read.
func Capture(controller *os.File) (output func() string) {
	var seen bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		b := make([]byte, 4096)
		for {
			n, err := controller.Read(b)
			seen.Write(b[:n])
			if err != nil {
				return
			}
		}
	}()
	return func() string {
		<-done
		return seen.String()
	}
}
