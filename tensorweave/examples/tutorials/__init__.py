"""TF1 tutorial helper modules (`tensorweave.examples.tutorials.mnist`)."""
