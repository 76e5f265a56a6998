"""`tf.keras.layers`: keras layers for TF1 graph mode (many share tf.layers' implementation)."""

from ..engine import (Input, InputLayer, InputSpec, Layer,  # noqa: F401
                      disable_v2_dtype_behavior, enable_v2_dtype_behavior)
from .core import (Identity, Activation, Dense, Dropout, Flatten, Lambda, Masking, Permute,  # noqa: F401
                   RepeatVector, Reshape)
from .convolutional import *  # noqa: F401,F403
from .convolutional_extra import *  # noqa: F401,F403
from .advanced_activations import *  # noqa: F401,F403
from .noise import *  # noqa: F401,F403
from .reshaping import *  # noqa: F401,F403
from .normalization import BatchNormalization  # noqa: F401
from .normalization_extra import *  # noqa: F401,F403
from .embeddings import Embedding  # noqa: F401
from .merge import *  # noqa: F401,F403
from .recurrent import *  # noqa: F401,F403
from .wrappers import *  # noqa: F401,F403
from .einsum_dense import EinsumDense  # noqa: F401
from .attention import AdditiveAttention, Attention, MultiHeadAttention  # noqa: F401
from .preprocessing import (CategoryEncoding, CenterCrop, Discretization,  # noqa: F401
                            Normalization, Rescaling, Resizing)
from .hashing import Hashing  # noqa: F401
from .local import LocallyConnected1D, LocallyConnected2D  # noqa: F401
from .conv_lstm import ConvLSTM1D, ConvLSTM2D, ConvLSTM3D  # noqa: F401
from . import experimental  # noqa: F401
from ..saving import deserialize, serialize  # noqa: F401


def __getattr__(name):
    raise AttributeError(f"tf.keras.layers.{name} is not supported by tensorweave yet")
