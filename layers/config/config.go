// Package config reads .claude/memory/config.yaml. The file is optional:
// absent, every setting has its default, and memkeep never writes it.
package config

import (
	"errors"
	"fmt"
	"os"

	"github.com/memkeep/memkeep/internal/fastfile"
)

// Config holds every setting. Field comments give the YAML key and the
// default; docs/format.md documents the file, which parse (parse.go)
// reads through go.yaml.in/yaml/v3 into these fields.
type Config struct {
	// Commit: auto (commit each consolidation), stage (write objects and
	// index entries, leave the commit to the user) or off. Default auto.
	Commit string `yaml:"commit"`
	// Stop configures the Stop hook's enforcement.
	Stop StopConfig `yaml:"stop"`
	// Context configures what SessionStart injects.
	Context ContextConfig `yaml:"context"`
	// Recall configures what UserPromptSubmit injects.
	Recall RecallConfig `yaml:"recall"`
	// Evaluator, when set, is a command that scores L2 candidates instead
	// of the built-in heuristic (JSON on stdin and stdout).
	Evaluator string `yaml:"evaluator"`
	// Scan, when set, is a secret scanner run over the memory folder before
	// each memory commit (memkeep's commits run no git hook); a non-zero
	// exit defers the commit.
	Scan string `yaml:"scan"`
}

// StopConfig bounds how the Stop hook asks the agent to update memory.
type StopConfig struct {
	// Enforce: block (ask the agent to run the commands), remind (only a
	// systemMessage) or off. Default block.
	Enforce string `yaml:"enforce"`
	// BlockBudget is the most blocks per turn. Default 2, at most 7 (Claude
	// Code stops honouring Stop blocks after 8).
	BlockBudget int `yaml:"block_budget"`
	// MinEdits and MinToolUses: the new material since the last
	// consolidation that makes asking worth it (either suffices).
	// Defaults 1 and 8.
	MinEdits    int `yaml:"min_edits"`
	MinToolUses int `yaml:"min_tool_uses"`
}

// ContextConfig bounds the SessionStart context.
type ContextConfig struct {
	// Budget in characters; default 6000, at most 9500 (Claude Code moves
	// anything over 10,000 into a file).
	Budget int `yaml:"budget"`
	// HotHours is the window of the hot digest of recent events; default 24.
	HotHours int `yaml:"hot_hours"`
}

// RecallConfig bounds what recall answers and a prompt gets injected.
type RecallConfig struct {
	// Threshold is the least share of a query's information (0–1) an
	// answer must hold; default 0.3.
	Threshold float64 `yaml:"threshold"`
	// Max is the most answers injected into a prompt; default 2 (the
	// budget then gives each more of its lines).
	Max int `yaml:"max"`
	// Budget bounds what a prompt is given, in characters; default 2000.
	Budget int `yaml:"budget"`
}

// Default returns the settings used when config.yaml is absent.
func Default() Config {
	return Config{
		Commit:  "auto",
		Stop:    StopConfig{Enforce: "block", BlockBudget: 2, MinEdits: 1, MinToolUses: 8},
		Context: ContextConfig{Budget: 6000, HotHours: 24},
		Recall:  RecallConfig{Threshold: 0.3, Max: 2, Budget: 2000},
	}
}

// Load reads the config file at path. A missing file gives the defaults;
// an invalid one gives the defaults and an error naming the problem, so a
// caller on a hook's path can carry on.
func Load(path string) (Config, error) {
	c := Default()
	b, err := fastfile.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	if err := parse(b, &c); err != nil {
		return Default(), fmt.Errorf("%s: %v (defaults are used; memkeep's docs/format.md lists the settings)", path, err)
	}
	return c, c.validate(path)
}

func (c *Config) validate(path string) error {
	var errs []error
	bad := func(key, val, want string) {
		errs = append(errs, fmt.Errorf("%s: %s: %q is not one of %s", path, key, val, want))
	}
	switch c.Commit {
	case "auto", "stage", "off":
	default:
		bad("commit", c.Commit, "auto, stage, off")
		c.Commit = "auto"
	}
	switch c.Stop.Enforce {
	case "block", "remind", "off":
	default:
		bad("stop.enforce", c.Stop.Enforce, "block, remind, off")
		c.Stop.Enforce = "block"
	}
	if c.Stop.BlockBudget < 0 || c.Stop.BlockBudget > 7 {
		errs = append(errs, fmt.Errorf("%s: stop.block_budget: %d is outside 0–7 (Claude Code ignores Stop blocks after 8)", path, c.Stop.BlockBudget))
		c.Stop.BlockBudget = 2
	}
	if c.Context.Budget <= 0 || c.Context.Budget > 9500 {
		errs = append(errs, fmt.Errorf("%s: context.budget: %d is outside 1–9500 characters", path, c.Context.Budget))
		c.Context.Budget = 6000
	}
	return errors.Join(errs...)
}
