package main

// The command reference, man pages and completion scripts are generated from
// the command tree, and the exit code tables of README.md and docs/ from
// exitcode.Table; CI regenerates them and fails on any difference.
//go:generate go run ./scripts/gendocs -out .
