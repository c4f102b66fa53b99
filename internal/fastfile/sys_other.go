//go:build !linux && !darwin

package fastfile

import "io/fs"

func sysOf(fs.FileInfo) (Sys, bool) { return Sys{}, false }
