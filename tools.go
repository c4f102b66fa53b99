//go:build tools

// Package tools pins build and test dependencies that no non-test package
// imports yet, so that `go mod tidy` keeps them.
package tools

import (
	_ "github.com/go-git/go-git/v5"
	_ "github.com/go-json-experiment/json"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/urfave/cli/v3"
	_ "github.com/yuin/goldmark"
	_ "go.yaml.in/yaml/v3"
)
