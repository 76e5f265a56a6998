"""Low-level libraries: CRC32C and the TFRecord file format (`tensorweave.lib.io`)."""
