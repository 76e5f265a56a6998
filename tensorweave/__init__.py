"""tensorweave: TensorFlow 1.x's graph API on a NumPy runtime.

    import tensorweave as tf
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.reduce_sum(x * 2.0)
    with tf.Session() as sess:
        print(sess.run(y, {x: [[1, 2, 3]]}))

This module only re-exports; each name lives in the module of its idea.
"""

import sys as _sys

__version__ = "0.1.0"
VERSION = __version__  # TF1's name

from . import kernels as _kernels  # noqa: F401  (registers the CPU kernels)
from .framework import dtypes, errors
from .framework.dtypes import *  # noqa: F401,F403
from .framework.dtypes import DType, as_dtype
from .framework.tensor_shape import Dimension, TensorShape, dimension_value
from .framework.graph import (Graph, GraphKeys, Operation, Tensor, add_to_collection,
                              add_to_collections, colocate_with, control_dependencies, device,
                              get_collection, get_collection_ref, get_default_graph,
                              get_default_session, name_scope, op_scope, reset_default_graph)
from .framework.device import DeviceSpec
from .framework.registry import NotDifferentiable, RegisterGradient
from .framework.registry import no_gradient as NoGradient
from .framework.registry import no_gradient
from .framework.constant_op import (constant, convert_to_tensor, register_tensor_conversion_function)
from .runtime.config import (ConfigProto, GPUOptions, GraphOptions, OptimizerOptions, RunMetadata,
                             RunOptions)
from .runtime.session import InteractiveSession, Session
from .ops.array_ops import *  # noqa: F401,F403
from .ops.math_ops import *  # noqa: F401,F403
from .ops.state_ops import *  # noqa: F401,F403
from .ops.variables import *  # noqa: F401,F403
from .ops.variable_scope import *  # noqa: F401,F403
from .ops.resource_variable_ops import (disable_resource_variables, enable_resource_variables,
                                        resource_variables_enabled)
from .ops import resource_training_ops as _resource_training_ops  # noqa: F401  (registers the ops)
from .ops.partitioned_variables import *  # noqa: F401,F403
from .ops.init_ops import *  # noqa: F401,F403
from .ops.random_ops import *  # noqa: F401,F403
from .ops.clip_ops import *  # noqa: F401,F403
from .ops.check_ops import *  # noqa: F401,F403
from .ops.logging_ops import Assert, Print, check_numerics
from .ops.logging_ops import print_v2 as print  # noqa: A001  (tf.print)
from .ops.data_flow_ops import *  # noqa: F401,F403
from .ops.parsing_ops import *  # noqa: F401,F403
from .ops.io_ops import *  # noqa: F401,F403  (the TF1 readers)
from .ops.sparse_ops import *  # noqa: F401,F403
from .ops.sparse_cross_ops import sparse_mask  # noqa: E402,F401  (tf.sparse_mask)
from .ops.embedding_ops import *  # noqa: F401,F403
from .ops.linalg_ops import *  # noqa: F401,F403
from .ops.string_ops import *  # noqa: F401,F403
from .ops.sequence_ops import *  # noqa: F401,F403
from .ops.control_flow_ops import group, no_op, tuple, with_dependencies  # noqa: A004
from .ops.control_flow_ops import case, cond, while_loop
from .ops.tensor_array_ops import TensorArray
from .ops.functional_ops import foldl, foldr, map_fn, scan
from .ops.script_ops import numpy_function, py_func, py_function
from .ops.session_ops import delete_session_tensor, get_session_handle, get_session_tensor  # noqa: E402,F401
from .ops.template import make_template
from .ops.custom_gradient import custom_gradient
from .ops import lookup_ops as lookup  # noqa: E402  (tf.lookup)
from .ops.lookup_ops import tables_initializer  # noqa: E402
from .framework.execution_mode import (disable_eager_execution, disable_v2_behavior, enable_eager_execution,
                                       enable_v2_behavior, executing_eagerly)
from .autodiff.gradients import AggregationMethod, UnconnectedGradients, gradients, hessians
from .framework.indexed_slices import IndexedSlices, IndexedSlicesValue
from .framework import indexed_slices as _indexed_slices

_indexed_slices._register_fetch()
from .framework import sparse_tensor as _sparse_tensor  # noqa: E402
_sparse_tensor._register_fetch()
from . import sparse  # noqa: E402  (tf.sparse namespace)
from . import strings  # noqa: E402  (tf.strings namespace)
from . import image  # noqa: E402  (tf.image namespace; TF1 has no image ops at the top level)
from .ops.image_box_ops import extract_image_patches  # noqa: E402  (also tf.image's)

from . import compat  # noqa: E402  (compat.v1 is this module)
from . import debugging  # noqa: E402
from .platform import app, flags, gfile  # noqa: E402
from .platform import tf_logging as logging  # noqa: E402
from . import initializers, layers, losses, math, nn, random, train  # noqa: E402,A004  (namespaces)
from . import linalg  # noqa: E402  (tf.linalg: inv, det, cholesky, solve, svd, norm, ...)
from . import manip  # noqa: E402  (tf.manip: roll)
from . import quantization  # noqa: E402  (tf.quantization: quantize/dequantize, fake_quant_*)
from .ops.quantization_ops import *  # noqa: E402,F401,F403  (tf.quantize, tf.dequantize, tf.fake_quant_*)
from . import bitwise  # noqa: E402  (tf.bitwise: and/or/xor/invert/shifts)
from . import signal, spectral  # noqa: E402  (tf.signal; TF1's tf.spectral)
from . import sets  # noqa: E402  (tf.sets: intersection, union, difference, size)
from .ops.spectral_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d  # noqa: E402
from .ops.signal_more_ops import fftnd, ifftnd, irfftnd, rfftnd  # noqa: E402,F401
from . import io, python_io  # noqa: E402  (namespaces: TFRecord files, Example protos)
from . import data  # noqa: E402  (tf.data: Dataset, Iterator, TFRecordDataset)
from . import summary  # noqa: E402  (tf.summary: summary ops, event files)
from . import saved_model  # noqa: E402  (tf.saved_model: SavedModel export and loading)
from . import metrics  # noqa: E402  (tf.metrics: accuracy, mean)
from . import distributions  # noqa: E402  (tf.distributions: Normal, Categorical, kl_divergence, ...)
from . import keras  # noqa: E402  (tf.keras: layers, Sequential/Model, compile/fit, optimizers)
from . import estimator, feature_column  # noqa: E402  (tf.estimator, tf.feature_column: TF1's Estimator API)
from . import contrib  # noqa: E402  (tf.contrib.training: GreedyLoadBalancingStrategy)
from .protos.public import *  # noqa: E402,F401,F403  (tf.GraphDef, tf.Summary, ...)
from .framework.graph_io import import_graph_def, make_ndarray, make_tensor_proto  # noqa: E402
from .framework import graph_util  # noqa: E402
from . import test, timeline  # noqa: E402  (tf.test: GPU queries, TestCase; Chrome-trace timelines)
from . import config  # noqa: E402  (tf.config: physical/logical devices, threading, memory growth)
from .platform.compat_api import grad_pass_through, type_spec_from_value, variable_creator_scope  # noqa: E402,F401
from .framework.errors import OpError  # noqa: E402,F401  (tf.OpError, as TF1 exports it)
from .runtime.devices import list_devices  # noqa: E402
from .module import Module  # noqa: E402  (tf.Module: named containers of variables)

newaxis = None
bool = dtypes.bool  # noqa: A001  (tf.bool, as in TensorFlow)

from .ops.misc_ops import *  # noqa: E402,F401,F403  (edit_distance, fingerprint, switch_case, ...)
from .ops.serialization_ops import *  # noqa: E402,F401,F403  (read_file, serialize_tensor, ...)
from .framework.behavior import *  # noqa: E402,F401,F403  (enable_*/disable_* toggles, init_scope)
from . import audio, nest, queue, version  # noqa: E402  (tf.audio, tf.nest, tf.queue, tf.version)
from .dtypes import cast as _cast  # noqa: E402  (loads the tf.dtypes namespace: DTypes and the casts)
dtypes = _sys.modules[__name__ + ".dtypes"]
from .version import (COMPILER_VERSION, GIT_VERSION, GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER,  # noqa: E402,F401
                      GRAPH_DEF_VERSION_MIN_PRODUCER)
from .ops.check_extra_ops import (assert_near, assert_proper_iterable, assert_rank_in,  # noqa: E402,F401
                                  assert_same_float_dtype)
from .framework.tensor_spec import (IndexedSlicesSpec, NoneTensorSpec, SparseTensorSpec, TensorSpec,  # noqa: E402
                                    TypeSpec)
from .data.specs import OptionalSpec, TensorArraySpec  # noqa: E402
from .ops.serialization_ops import decode_compressed, decode_json_example  # noqa: E402,F401  (also tf.io's)
from . import ragged  # noqa: E402  (tf.ragged; RaggedTensor fetches and dispatch)
from .ragged import RaggedTensorSpec  # noqa: E402
from .ragged.ragged_tensor import RaggedTensor  # noqa: E402
from .ragged.ragged_strings import string_split  # noqa: E402  (result_type='RaggedTensor' too)
ragged.install()
