"""`tensorweave.examples`: the module paths TF1's tutorials import from
(`from tensorflow.examples.tutorials.mnist import input_data`), so those programs run with
`tensorflow` replaced by `tensorweave`."""
