"""File and collection names of the SavedModel format (`tf.saved_model.constants`)."""

ASSETS_DIRECTORY = "assets"
ASSETS_KEY = "saved_model_assets"
LEGACY_INIT_OP_KEY = "legacy_init_op"
MAIN_OP_KEY = "saved_model_main_op"
TRAIN_OP_KEY = "saved_model_train_op"
SAVED_MODEL_SCHEMA_VERSION = 1
SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"

__all__ = [k for k in dir() if k.isupper()]

# Reserved SignatureDef keys (TF keeps them out of the public constants module too)
INIT_OP_SIGNATURE_KEY = "__saved_model_init_op"
TRAIN_OP_SIGNATURE_KEY = "__saved_model_train_op"
