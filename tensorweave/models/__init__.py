"""Reference models built from the public TF1 API (tf.layers / tf.nn), shared by the examples,
the demos and the benchmarks. Builders take the TF1-style module as `tf`, so the same code builds
the model on tensorweave or on TensorFlow."""
