// PDU scripts: a GATT client or server exchanging ATT PDUs with a script. See docs/architecture.md.
