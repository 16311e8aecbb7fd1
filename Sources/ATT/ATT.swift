// The ATT layer. See docs/architecture.md.
