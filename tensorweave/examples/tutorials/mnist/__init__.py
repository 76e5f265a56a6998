"""MNIST tutorial helpers: `input_data` (local IDX files, no download) and `mnist` (the
fully_connected_feed model: inference / loss / training / evaluation)."""
