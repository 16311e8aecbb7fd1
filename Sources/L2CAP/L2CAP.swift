// The L2CAP layer. See docs/architecture.md.
