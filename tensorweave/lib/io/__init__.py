"""File formats: TFRecord (`tf_record`)."""
