//go:build !unix

package fastfile

// Map returns the contents of the file at path and a function that
// releases them; here the file is read.
func Map(path string) ([]byte, func(), error) {
	b, err := ReadFile(path)
	return b, func() {}, err
}
