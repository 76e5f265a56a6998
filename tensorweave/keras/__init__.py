"""`tf.keras` for TF1 graph mode: layers, Sequential and functional models, compile/fit,
optimizers, losses, metrics and the backend session, as TF's (legacy tf_keras) keras runs them
under `tf.compat.v1` with v2 behaviour disabled.

    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, batch_size=16, epochs=10, verbose=0)
    history.history["loss"], history.history["acc"]
"""

from . import (activations, backend, callbacks, constraints, datasets, initializers,  # noqa: F401
               layers, losses, metrics, optimizers, preprocessing, regularizers, utils)
from .engine import Input  # noqa: F401
from .models import Model, Sequential  # noqa: F401
from . import models  # noqa: F401

__version__ = "2.21.0-tensorweave"


def __getattr__(name):
    raise AttributeError(f"tf.keras.{name} is not supported by tensorweave yet")
