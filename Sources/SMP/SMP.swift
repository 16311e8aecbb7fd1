// The SMP layer. See docs/architecture.md.
