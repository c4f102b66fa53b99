// Command emptygo is the second floor of the hook benchmarks: a Go program
// that reads its standard input and prints {}, as a hook with nothing to do
// would. What memkeep's hooks cost above it is memkeep's own; what it costs
// above `true` is Go's runtime start.
package main

import (
	"io"
	"os"
)

func main() {
	io.Copy(io.Discard, os.Stdin)
	os.Stdout.WriteString("{}\n")
}
