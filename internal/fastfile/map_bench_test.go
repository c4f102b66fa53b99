package fastfile

import (
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkMapOrRead times what Map replaces: reading a file into the heap
// and going over its bytes once, against mapping it (Map above mapMin)
// and going over the mapped bytes, by file size. Run with
//
//	go test ./internal/fastfile -run '^$' -bench MapOrRead
func BenchmarkMapOrRead(b *testing.B) {
	dir := b.TempDir()
	for _, size := range []int{16 << 10, 64 << 10, 256 << 10, 1 << 20} {
		p := filepath.Join(dir, fmt.Sprint(size))
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("read/%dKiB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				d, err := ReadFile(p)
				if err != nil {
					b.Fatal(err)
				}
				crc32.ChecksumIEEE(d)
			}
		})
		b.Run(fmt.Sprintf("map/%dKiB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				f, err := Open(p, os.O_RDONLY, 0)
				if err != nil {
					b.Fatal(err)
				}
				fi, _ := f.Stat()
				d, release, ok := mapFile(f, fi)
				if !ok {
					d, _ = readAll(f, fi)
					release = func() {}
				}
				crc32.ChecksumIEEE(d)
				release()
				f.Close()
			}
		})
	}
}
