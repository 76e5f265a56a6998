"""`tensorweave serve` (a TensorFlow-Serving-style REST server) and `tensorweave inspect`."""
