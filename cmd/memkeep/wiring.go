package main

import (
	"github.com/memkeep/memkeep/hooks"
	"github.com/memkeep/memkeep/layers/memdir"
	"github.com/memkeep/memkeep/layers/stream"
)

// hookDeps connects the hooks to the layers that do the work.
func hookDeps() hooks.Deps {
	return hooks.Deps{Stream: streamAdapter{}}
}

// streamAdapter appends hook events to the event stream.
type streamAdapter struct{}

func (streamAdapter) Append(l memdir.Layout, e hooks.Event) error {
	_, err := stream.Append(l, stream.Event{
		Surface: stream.SurfaceClaudeCode, Type: e.Type, Direction: e.Direction,
		Summary: e.Summary, SessionID: e.SessionID, Content: e.Content, Metadata: e.Metadata,
	})
	return err
}
