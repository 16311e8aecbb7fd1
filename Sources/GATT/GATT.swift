// The GATT layer: attribute database, server, client. See docs/architecture.md.
