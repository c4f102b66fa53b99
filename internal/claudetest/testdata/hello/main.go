// Command hello is a minimal main package for the GoBuild test.
package main

import "fmt"

func main() { fmt.Println("hello from a built hook") }
