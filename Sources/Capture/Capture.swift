// The Capture layer. See docs/architecture.md.
