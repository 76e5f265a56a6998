"""Platform helpers TF1 scripts use: tf.app, tf.flags, tf.logging, tf.gfile."""
